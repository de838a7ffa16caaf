import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, memdClient, startServer, type Client, type TestServer } from '../support/server.js';

let server: TestServer;
let api: Client;

beforeAll(async () => {
  server = await startServer({ env: { MEMD_IMPORT_BODY_LIMIT_BYTES: '200000' } });
  api = client(server.url);
});
afterAll(() => server.stop());

const lines = (ndjson: string) =>
  ndjson
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
const comparable = (m: Record<string, unknown>) => {
  const { id: _id, workspace_id: _ws, source_memory_id, ...rest } = m;
  return { ...rest, has_parent: source_memory_id !== null };
};

async function seed(ws: string) {
  await api.post('/v1/workspaces', { id: ws, name: ws });
  const a = (
    await api.post('/v1/memories', {
      workspace_id: ws,
      content: 'Kai adopted a dog named Biscuit. Biscuit is a two-year-old beagle who loves the beach.',
      tags: ['pets'],
      metadata: { date: '2024-02-01' },
      importance: 0.8,
    })
  ).body.memory;
  const b = (
    await api.post('/v1/memories', {
      workspace_id: ws,
      content: 'Kai walks Biscuit every morning.',
      associations: [a.id],
    })
  ).body.memory;
  await api.put(`/v1/memories/${b.id}`, { workspace_id: ws, pinned: true });
  const c = (await api.post('/v1/memories', { workspace_id: ws, content: 'An obsolete note.' })).body.memory;
  await api.delete(`/v1/memories/${c.id}?workspace_id=${ws}`);
  await server.drainTasks(); // facts of `a` and their part_of edges
  return { a, b, c };
}

describe('export', () => {
  it('streams header, memory lines, association lines and a footer as NDJSON', async () => {
    await seed('exp');
    const res = await api.get('/v1/workspaces/exp/export');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/x-ndjson');
    const all = lines(res.body);
    const memories = all.filter((l) => l.type === 'memory');
    const edges = all.filter((l) => l.type === 'association');
    expect(all[0]).toMatchObject({
      type: 'header',
      version: '1.0',
      workspace_id: 'exp',
      total_memories: memories.length,
      total_associations: edges.length,
      offset: 0,
      limit: 0,
    });
    expect(all.at(-1)).toEqual({
      type: 'footer',
      memories_exported: memories.length,
      associations_exported: edges.length,
    });
    expect(memories.map((m) => m.index)).toEqual(memories.map((_, i) => i));
    expect(memories.some((m) => m.data.status === 'deleted')).toBe(true);
    expect(memories.filter((m) => m.data.source_memory_id !== null).length).toBeGreaterThanOrEqual(2);
    expect(memories[0].data).toHaveProperty('content_hash');
    expect(memories[0].data).not.toHaveProperty('embedding');
    expect(edges.map((e) => e.data.relationship_type)).toEqual(expect.arrayContaining(['related_to', 'part_of']));

    const page = lines((await api.get('/v1/workspaces/exp/export?offset=1&limit=1&include_associations=false')).body);
    expect(page.map((l) => l.type)).toEqual(['header', 'memory', 'footer']);
    expect(page[1].index).toBe(1);
    const withVectors = lines((await api.get('/v1/workspaces/exp/export?limit=1&include_embeddings=true')).body);
    expect(withVectors[1].data.embedding).toHaveLength(256);
    expect((await api.get('/v1/workspaces/nope/export')).status).toBe(404);
    expect((await api.get('/v1/workspaces/exp/export?limit=-1')).status).toBe(422);
  });
});

describe('import', () => {
  it('round-trips a workspace into an empty one: every memory and association', async () => {
    await seed('src');
    const exported = (await api.get('/v1/workspaces/src/export')).body as string;
    await api.post('/v1/workspaces', { id: 'dst', name: 'dst' });
    const res = await api.raw('POST', '/v1/workspaces/dst/import', exported, {
      'content-type': 'application/x-ndjson',
    });
    expect(res.status).toBe(200);
    const source = lines(exported);
    const sourceMemories = source.filter((l) => l.type === 'memory').map((l) => l.data);
    expect(res.body).toMatchObject({ imported: sourceMemories.length, skipped_duplicates: 0, errors: 0 });

    const copy = lines((await api.get('/v1/workspaces/dst/export')).body as string);
    const copyMemories = copy.filter((l) => l.type === 'memory').map((l) => l.data);
    const byHash = (ms: Record<string, unknown>[]) => new Map(ms.map((m) => [m.content_hash, comparable(m)]));
    expect(byHash(copyMemories)).toEqual(byHash(sourceMemories));

    // Edges compared by the content they connect.
    const contentOf = (ms: Array<{ id: string; content: string }>) => new Map(ms.map((m) => [m.id, m.content]));
    const edgeKeys = (
      ls: Array<{
        type: string;
        data: { source_id: string; target_id: string; relationship_type: string; strength: number };
      }>,
      names: Map<string, string>,
    ) =>
      ls
        .filter((l) => l.type === 'association')
        .map(
          (l) =>
            `${names.get(l.data.source_id)} -${l.data.relationship_type}/${l.data.strength}-> ${names.get(l.data.target_id)}`,
        )
        .sort();
    expect(edgeKeys(copy, contentOf(copyMemories))).toEqual(edgeKeys(source, contentOf(sourceMemories)));
    expect(edgeKeys(copy, contentOf(copyMemories)).length).toBeGreaterThanOrEqual(3);

    // A second import skips every memory by content hash.
    const again = await api.raw('POST', '/v1/workspaces/dst/import', exported, {
      'content-type': 'application/x-ndjson',
    });
    expect(again.body).toMatchObject({ imported: 0, skipped_duplicates: sourceMemories.length });
  });

  it('brings back the same text of two customers as two memories, and skips it again for each', async () => {
    await api.post('/v1/workspaces', { id: 'two-src', name: 'two-src' });
    for (const subject_id of ['cust-a', 'cust-b'])
      await api.post('/v1/memories', {
        workspace_id: 'two-src',
        content: 'The customer is on the Pro plan.',
        subject_id,
      });
    const exported = (await api.get('/v1/workspaces/two-src/export')).body as string;
    await api.post('/v1/workspaces', { id: 'two-dst', name: 'two-dst' });
    const ndjson = { 'content-type': 'application/x-ndjson' };
    const first = await api.raw('POST', '/v1/workspaces/two-dst/import', exported, ndjson);
    expect(first.body).toMatchObject({ imported: 2, skipped_duplicates: 0 });
    const copy = lines((await api.get('/v1/workspaces/two-dst/export')).body as string);
    const subjects = copy.filter((l) => l.type === 'memory').map((l) => l.data.subject_id);
    expect(subjects.sort()).toEqual(['cust-a', 'cust-b']);
    const again = await api.raw('POST', '/v1/workspaces/two-dst/import', exported, ndjson);
    expect(again.body).toMatchObject({ imported: 0, skipped_duplicates: 2 });
  });

  it('takes the JSON {data: …} form and reports bad records without stopping', async () => {
    await api.post('/v1/workspaces', { id: 'json-in', name: 'json' });
    const res = await api.post('/v1/workspaces/json-in/import', {
      data: {
        version: '1.0',
        memories: [
          { id: 'old_1', content: 'Imported memory one', tags: ['x'], created_at: '2020-01-01T00:00:00.000Z' },
          { id: 'old_2', content: 'Imported memory two', type: 'procedural' },
          { id: 'old_3', content: '' },
          { id: 'old_4', content: 'Bad importance', importance: 3 },
          // RFC 3339 allows a leap second; no JavaScript date holds one, and every recall carrying it had failed.
          { id: 'old_5', content: 'Written in a leap second', created_at: '2016-12-31T23:59:60Z' },
        ],
        associations: [
          { source_id: 'old_1', target_id: 'old_2', relationship_type: 'CAUSES', strength: 0.9 },
          { source_id: 'old_1', target_id: 'old_9', relationship_type: 'causes' },
          { source_id: 'old_1', target_id: 'old_2', relationship_type: 'befriends' },
        ],
      },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ imported: 2, associations_imported: 1, errors: 5 });
    expect(res.body.details).toHaveLength(5);
    expect((await api.post('/v1/memories/recall', { query: 'leap second', workspace_id: 'json-in' })).status).toBe(200);
    const listed = (await api.get('/v1/memories?workspace_id=json-in')).body.memories;
    expect(listed.find((m: { content: string }) => m.content === 'Imported memory one').created_at).toBe(
      '2020-01-01T00:00:00.000Z',
    );
  });

  it('reports malformed NDJSON lines, refuses oversized bodies and unknown workspaces', async () => {
    await api.post('/v1/workspaces', { id: 'nd-in', name: 'nd' });
    const body = [
      '{"type":"header","version":"1.0"}',
      'not json',
      '{"type":"memory","index":0,"data":{"content":"line memory"}}',
      '{"type":"mystery"}',
    ].join('\n');
    const res = await api.raw('POST', '/v1/workspaces/nd-in/import', body, { 'content-type': 'application/x-ndjson' });
    expect(res.body).toMatchObject({ imported: 1, errors: 2 });
    expect(res.body.details[0]).toContain('line 2');
    const huge = Array.from({ length: 3000 }, (_, i) =>
      JSON.stringify({ type: 'memory', index: i, data: { content: `padding memory number ${i} `.repeat(4) } }),
    ).join('\n');
    const tooBig = await api.raw('POST', '/v1/workspaces/nd-in/import', huge, {
      'content-type': 'application/x-ndjson',
    });
    expect(tooBig.status).toBe(413);
    // Without a Content-Length (chunked), the limit is enforced while reading.
    const chunked = await memdClient(server.url).request<{ code: string }>('POST', '/v1/workspaces/nd-in/import', {
      headers: { 'content-type': 'application/x-ndjson' },
      body: new Blob([huge]).stream(),
    });
    expect(chunked.status).toBe(413);
    expect(chunked.data.code).toBe('payload_too_large');
    expect((await api.post('/v1/workspaces/nope/import', { data: { memories: [] } })).status).toBe(404);
    expect((await api.post('/v1/workspaces/nd-in/import', { memories: [] })).status).toBe(422);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphWorkspace, link, remember } from '../support/graph.js';
import { ConflictError, NotFoundError, ValidationError, type MemdClient } from '../../packages/client/src/index.js';
import { client, failureOf, memdClient, startServer, type Client, type TestServer } from '../support/server.js';

let server: TestServer;
let memd: MemdClient;
/** For bodies and queries the client's types refuse. */
let api: Client;

beforeAll(async () => {
  server = await startServer();
  memd = memdClient(server.url);
  api = client(server.url);
});
afterAll(() => server.stop());

type EdgeFilters = Omit<NonNullable<Parameters<MemdClient['associations']['list']>[1]>, 'workspace_id'>;
const edgesOf = (ws: string, id: string, filters: EdgeFilters = {}) =>
  memd.associations.list(id, { workspace_id: ws, ...filters });

describe('the relationship taxonomy', () => {
  it('is described by the workspace schema: 63 types in 11 categories, each type in one category', async () => {
    const schema = await memd.workspaces.schema('_default');
    const categories = schema.relationship_categories;
    expect(Object.keys(categories).sort()).toEqual([
      'causal',
      'context',
      'hierarchical',
      'learning',
      'quality',
      'reference',
      'refinement',
      'similarity',
      'solution',
      'temporal',
      'workflow',
    ]);
    expect(Object.values(categories).flat().sort()).toEqual([...schema.relationship_types].sort());
    expect(categories.solution).toContain('solves');
  });
});

describe('POST /v1/memories/{id}/associate', () => {
  it('creates a typed edge, matching the relationship case-insensitively and storing it lower-case', async () => {
    const ws = await graphWorkspace(memd, 'assoc-create');
    const [a, b] = (await remember(memd, ws, [
      'The checkout page crashes on Safari',
      'Polyfill structuredClone for Safari 14',
    ])) as [string, string];
    const res = await memd.memories.associate.withResponse(b, {
      workspace_id: ws,
      target_id: a,
      relationship: 'SOLVES',
      strength: 0.9,
      metadata: { verified: true },
    });
    expect(res.status).toBe(201);
    expect(res.data.association).toEqual({
      id: expect.stringMatching(/^assoc_[0-9a-f]{16}$/),
      workspace_id: ws,
      source_id: b,
      target_id: a,
      relationship: 'solves',
      strength: 0.9,
      metadata: { verified: true },
      created_at: expect.any(String),
    });
    const defaults = await memd.associations.create.withResponse(a, {
      workspace_id: ws,
      target_id: b,
      relationship: 'Related_To',
    });
    expect(defaults.status).toBe(201);
    expect(defaults.data.association).toMatchObject({
      source_id: a,
      target_id: b,
      relationship: 'related_to',
      strength: 0.5,
      metadata: {},
    });
  });

  it('states an existing edge again as an update (200, same id, one edge), never a 500', async () => {
    const ws = await graphWorkspace(memd, 'assoc-dup');
    const [a, b] = (await remember(memd, ws, [
      'Deploys run from the main branch',
      'Releases are tagged every Tuesday',
    ])) as [string, string];
    const first = await link(memd, ws, a, b, 'follows', 0.4);
    const again = await memd.memories.associate.withResponse(a, {
      workspace_id: ws,
      target_id: b,
      relationship: 'FOLLOWS',
      strength: 0.8,
      metadata: { note: 'checked' },
    });
    expect(again.status).toBe(200);
    expect(again.data.association).toMatchObject({
      id: first.id,
      strength: 0.8,
      metadata: { note: 'checked' },
      created_at: first.created_at,
    });
    const listed = await edgesOf(ws, a);
    expect(listed.total_count).toBe(1);
    expect(listed.associations[0]).toMatchObject({ id: first.id, strength: 0.8 });
    // Another relationship between the same two memories is another edge.
    expect(
      (await memd.memories.associate.withResponse(a, { workspace_id: ws, target_id: b, relationship: 'enables' }))
        .status,
    ).toBe(201);
    expect((await edgesOf(ws, a)).total_count).toBe(2);
  });

  it('refuses unknown relationships, missing or foreign targets, self-loops and bad strengths, changing nothing', async () => {
    const ws = await graphWorkspace(memd, 'assoc-rules');
    const other = await graphWorkspace(memd, 'assoc-rules-other');
    const [a, b] = (await remember(memd, ws, ['Alpha service owns billing', 'Beta service owns search'])) as [
      string,
      string,
    ];
    const [foreign] = (await remember(memd, other, ['Gamma service lives elsewhere'])) as [string];
    // Untyped: most of these bodies are ones the client's types refuse.
    const attempt = (source: string, body: Record<string, unknown>) =>
      api.post(`/v1/memories/${source}/associate`, { workspace_id: ws, ...body });

    const unknown = await attempt(a, { target_id: b, relationship: 'loves' });
    expect(unknown.status).toBe(422);
    expect(unknown.body.details[0].path).toBe('/relationship');
    expect((await attempt(a, { target_id: 'mem_0000000000000000', relationship: 'similar_to' })).status).toBe(422);
    const crossWorkspace = await attempt(a, { target_id: foreign, relationship: 'similar_to' });
    expect(crossWorkspace.status).toBe(422);
    expect(crossWorkspace.body.details[0].path).toBe('/target_id');
    const selfLoop = await attempt(a, { target_id: a, relationship: 'similar_to' });
    expect(selfLoop.status).toBe(422);
    expect(selfLoop.body.message).toContain('itself');
    expect((await attempt(a, { target_id: b, relationship: 'similar_to', strength: 1.5 })).status).toBe(422);
    expect((await attempt(a, { target_id: b, relationship: 'similar_to', strength: '0.7' })).status).toBe(422);
    expect((await attempt(a, { relationship: 'similar_to' })).status).toBe(422);
    expect((await attempt(a, { target_id: b })).status).toBe(422);
    expect((await attempt(a, { target_id: b, relationship: 'similar_to', colour: 'red' })).status).toBe(422);
    expect((await attempt('mem_0000000000000000', { target_id: b, relationship: 'similar_to' })).status).toBe(404);
    // The source must be in the resolved workspace too.
    expect(
      await failureOf(memd.memories.associate(foreign, { workspace_id: ws, target_id: a, relationship: 'similar_to' })),
    ).toBeInstanceOf(NotFoundError);
    expect((await edgesOf(ws, a)).total_count).toBe(0);
    expect((await edgesOf(other, foreign)).total_count).toBe(0);
  });

  it('does not link deleted memories', async () => {
    const ws = await graphWorkspace(memd, 'assoc-deleted');
    const [a, b, c] = (await remember(memd, ws, [
      'Old office in Leeds',
      'New office in York',
      'Parking is free at York',
    ])) as [string, string, string];
    await memd.memories.delete(a, { workspace_id: ws });
    expect(
      await failureOf(memd.memories.associate(a, { workspace_id: ws, target_id: b, relationship: 'supersedes' })),
    ).toBeInstanceOf(ConflictError);
    expect(
      await failureOf(memd.memories.associate(b, { workspace_id: ws, target_id: a, relationship: 'supersedes' })),
    ).toBeInstanceOf(ValidationError);
    expect(
      (await memd.memories.associate.withResponse(c, { workspace_id: ws, target_id: b, relationship: 'applies_to' }))
        .status,
    ).toBe(201);
  });
});

describe('GET /v1/memories/{id}/associations', () => {
  it('filters by direction and by relationship types (comma-separated, any case)', async () => {
    const ws = await graphWorkspace(memd, 'assoc-list');
    const [hub, x, y, z] = (await remember(memd, ws, [
      'Hub memory about caching',
      'Redis is the cache',
      'Cache keys expire hourly',
      'Stale reads happen after deploys',
    ])) as [string, string, string, string];
    const out1 = await link(memd, ws, hub, x, 'contains');
    const out2 = await link(memd, ws, hub, y, 'similar_to');
    const in1 = await link(memd, ws, z, hub, 'causes');
    const ids = (page: { associations: Array<{ id: string }> }) => page.associations.map((e) => e.id).sort();

    expect(ids(await edgesOf(ws, hub))).toEqual([out1.id, out2.id, in1.id].sort());
    expect(ids(await edgesOf(ws, hub, { direction: 'outgoing' }))).toEqual([out1.id, out2.id].sort());
    expect(ids(await edgesOf(ws, hub, { direction: 'incoming' }))).toEqual([in1.id]);
    expect(ids(await edgesOf(ws, hub, { relationships: ['CONTAINS,Causes'] }))).toEqual([out1.id, in1.id].sort());
    expect(ids(await edgesOf(ws, hub, { relationships: ['contains', 'similar_to'] }))).toEqual(
      [out1.id, out2.id].sort(),
    );
    expect(ids(await edgesOf(ws, hub, { relationships: ['causes'], direction: 'outgoing' }))).toEqual([]);
    expect((await edgesOf(ws, hub, { direction: 'both' })).total_count).toBe(3);
    expect(await failureOf(edgesOf(ws, hub, { relationships: ['hugs'] }))).toBeInstanceOf(ValidationError);
    expect((await api.get(`/v1/memories/${hub}/associations?workspace_id=${ws}&direction=sideways`)).status).toBe(422);
    expect(await failureOf(edgesOf(ws, 'mem_0000000000000000'))).toBeInstanceOf(NotFoundError);
  });

  it('leaves out edges to soft-deleted memories and loses the edges of hard-deleted ones', async () => {
    const ws = await graphWorkspace(memd, 'assoc-delete');
    const [a, b, c] = (await remember(memd, ws, [
      'Service A calls B',
      'Service B calls C',
      'Service C is a queue',
    ])) as [string, string, string];
    await link(memd, ws, a, b, 'depends_on');
    await link(memd, ws, b, c, 'depends_on');
    await memd.memories.delete(c, { workspace_id: ws });
    const afterSoft = await edgesOf(ws, b);
    expect(afterSoft.total_count).toBe(1);
    expect(afterSoft.associations[0]).toMatchObject({ source_id: a, target_id: b });
    await memd.memories.delete(a, { workspace_id: ws, hard: true });
    expect((await edgesOf(ws, b)).total_count).toBe(0);
    // The soft-deleted memory's edge is still stored (it is only not followed); the hard-deleted one's is gone.
    expect(await server.app.services.storage.associations.count(ws)).toBe(1);
  });
});

describe('DELETE /v1/memories/{id}/associations/{association_id}', () => {
  it('removes one edge from either end, and 404s for unknown ids or another memory', async () => {
    const ws = await graphWorkspace(memd, 'assoc-remove');
    const [a, b, c] = (await remember(memd, ws, [
      'Tea is served at four',
      'Biscuits come with tea',
      'The kettle is in the hall',
    ])) as [string, string, string];
    const ab = await link(memd, ws, a, b, 'related_to');
    const bc = await link(memd, ws, b, c, 'related_to');
    const remove = (memory: string, association: string, workspace_id = ws) =>
      memd.associations.delete(memory, association, { workspace_id });
    expect(await failureOf(remove(c, ab.id))).toBeInstanceOf(NotFoundError);
    expect((await memd.associations.delete.withResponse(b, ab.id, { workspace_id: ws })).status).toBe(204);
    expect(await failureOf(remove(b, ab.id))).toBeInstanceOf(NotFoundError);
    expect(await failureOf(remove(b, bc.id, 'other'))).toBeInstanceOf(NotFoundError);
    expect((await edgesOf(ws, b)).associations.map((e) => e.id)).toEqual([bc.id]);
  });
});

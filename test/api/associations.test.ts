import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphWorkspace, link, remember } from '../support/graph.js';
import { client, startServer, type Client, type TestServer } from '../support/server.js';

let server: TestServer;
let api: Client;

beforeAll(async () => {
  server = await startServer();
  api = client(server.url);
});
afterAll(() => server.stop());

const edgesOf = (ws: string, id: string, query = '') => api.get(`/v1/memories/${id}/associations?workspace_id=${ws}${query}`);

describe('the relationship taxonomy', () => {
  it('is described by the workspace schema: 63 types in 11 categories, each type in one category', async () => {
    const schema = (await api.get('/v1/workspaces/_default/schema')).body;
    const categories = schema.relationship_categories as Record<string, string[]>;
    expect(Object.keys(categories).sort()).toEqual(['causal', 'context', 'hierarchical', 'learning', 'quality', 'reference', 'refinement', 'similarity', 'solution', 'temporal', 'workflow']);
    expect(Object.values(categories).flat().sort()).toEqual([...schema.relationship_types].sort());
    expect(categories.solution).toContain('solves');
  });
});

describe('POST /v1/memories/{id}/associate', () => {
  it('creates a typed edge, matching the relationship case-insensitively and storing it lower-case', async () => {
    const ws = await graphWorkspace(api, 'assoc-create');
    const [a, b] = (await remember(api, ws, ['The checkout page crashes on Safari', 'Polyfill structuredClone for Safari 14'])) as [string, string];
    const res = await api.post(`/v1/memories/${b}/associate`, { workspace_id: ws, target_id: a, relationship: 'SOLVES', strength: 0.9, metadata: { verified: true } });
    expect(res.status).toBe(201);
    expect(res.body.association).toEqual({
      id: expect.stringMatching(/^assoc_[0-9a-f]{16}$/),
      workspace_id: ws,
      source_id: b,
      target_id: a,
      relationship: 'solves',
      strength: 0.9,
      metadata: { verified: true },
      created_at: expect.any(String),
    });
    const defaults = await api.post(`/v1/memories/${a}/associations`, { workspace_id: ws, target_id: b, relationship: 'Related_To' });
    expect(defaults.status).toBe(201);
    expect(defaults.body.association).toMatchObject({ source_id: a, target_id: b, relationship: 'related_to', strength: 0.5, metadata: {} });
  });

  it('states an existing edge again as an update (200, same id, one edge), never a 500', async () => {
    const ws = await graphWorkspace(api, 'assoc-dup');
    const [a, b] = (await remember(api, ws, ['Deploys run from the main branch', 'Releases are tagged every Tuesday'])) as [string, string];
    const first = await link(api, ws, a, b, 'follows', 0.4);
    const again = await api.post(`/v1/memories/${a}/associate`, { workspace_id: ws, target_id: b, relationship: 'FOLLOWS', strength: 0.8, metadata: { note: 'checked' } });
    expect(again.status).toBe(200);
    expect(again.body.association).toMatchObject({ id: first.id, strength: 0.8, metadata: { note: 'checked' }, created_at: first.created_at });
    const listed = (await edgesOf(ws, a)).body;
    expect(listed.total_count).toBe(1);
    expect(listed.associations[0]).toMatchObject({ id: first.id, strength: 0.8 });
    // Another relationship between the same two memories is another edge.
    expect((await api.post(`/v1/memories/${a}/associate`, { workspace_id: ws, target_id: b, relationship: 'enables' })).status).toBe(201);
    expect((await edgesOf(ws, a)).body.total_count).toBe(2);
  });

  it('refuses unknown relationships, missing or foreign targets, self-loops and bad strengths, changing nothing', async () => {
    const ws = await graphWorkspace(api, 'assoc-rules');
    const other = await graphWorkspace(api, 'assoc-rules-other');
    const [a, b] = (await remember(api, ws, ['Alpha service owns billing', 'Beta service owns search'])) as [string, string];
    const [foreign] = (await remember(api, other, ['Gamma service lives elsewhere'])) as [string];
    const attempt = (source: string, body: Record<string, unknown>) => api.post(`/v1/memories/${source}/associate`, { workspace_id: ws, ...body });

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
    expect((await api.post(`/v1/memories/${foreign}/associate`, { workspace_id: ws, target_id: a, relationship: 'similar_to' })).status).toBe(404);
    expect((await edgesOf(ws, a)).body.total_count).toBe(0);
    expect((await edgesOf(other, foreign)).body.total_count).toBe(0);
  });

  it('does not link deleted memories', async () => {
    const ws = await graphWorkspace(api, 'assoc-deleted');
    const [a, b, c] = (await remember(api, ws, ['Old office in Leeds', 'New office in York', 'Parking is free at York'])) as [string, string, string];
    await api.delete(`/v1/memories/${a}?workspace_id=${ws}`);
    expect((await api.post(`/v1/memories/${a}/associate`, { workspace_id: ws, target_id: b, relationship: 'supersedes' })).status).toBe(409);
    expect((await api.post(`/v1/memories/${b}/associate`, { workspace_id: ws, target_id: a, relationship: 'supersedes' })).status).toBe(422);
    expect((await api.post(`/v1/memories/${c}/associate`, { workspace_id: ws, target_id: b, relationship: 'applies_to' })).status).toBe(201);
  });
});

describe('GET /v1/memories/{id}/associations', () => {
  it('filters by direction and by relationship types (comma-separated, any case)', async () => {
    const ws = await graphWorkspace(api, 'assoc-list');
    const [hub, x, y, z] = (await remember(api, ws, ['Hub memory about caching', 'Redis is the cache', 'Cache keys expire hourly', 'Stale reads happen after deploys'])) as [string, string, string, string];
    const out1 = await link(api, ws, hub, x, 'contains');
    const out2 = await link(api, ws, hub, y, 'similar_to');
    const in1 = await link(api, ws, z, hub, 'causes');
    const ids = (res: { body: { associations: Array<{ id: string }> } }) => res.body.associations.map((e) => e.id).sort();

    expect(ids(await edgesOf(ws, hub))).toEqual([out1.id, out2.id, in1.id].sort());
    expect(ids(await edgesOf(ws, hub, '&direction=outgoing'))).toEqual([out1.id, out2.id].sort());
    expect(ids(await edgesOf(ws, hub, '&direction=incoming'))).toEqual([in1.id]);
    expect(ids(await edgesOf(ws, hub, '&relationships=CONTAINS,Causes'))).toEqual([out1.id, in1.id].sort());
    expect(ids(await edgesOf(ws, hub, '&relationships=contains&relationships=similar_to'))).toEqual([out1.id, out2.id].sort());
    expect(ids(await edgesOf(ws, hub, '&relationships=causes&direction=outgoing'))).toEqual([]);
    const both = (await edgesOf(ws, hub, '&direction=both')).body;
    expect(both.total_count).toBe(3);
    expect((await edgesOf(ws, hub, '&relationships=hugs')).status).toBe(422);
    expect((await edgesOf(ws, hub, '&direction=sideways')).status).toBe(422);
    expect((await edgesOf(ws, 'mem_0000000000000000')).status).toBe(404);
  });

  it('leaves out edges to soft-deleted memories and loses the edges of hard-deleted ones', async () => {
    const ws = await graphWorkspace(api, 'assoc-delete');
    const [a, b, c] = (await remember(api, ws, ['Service A calls B', 'Service B calls C', 'Service C is a queue'])) as [string, string, string];
    await link(api, ws, a, b, 'depends_on');
    await link(api, ws, b, c, 'depends_on');
    await api.delete(`/v1/memories/${c}?workspace_id=${ws}`);
    const afterSoft = (await edgesOf(ws, b)).body;
    expect(afterSoft.total_count).toBe(1);
    expect(afterSoft.associations[0]).toMatchObject({ source_id: a, target_id: b });
    await api.delete(`/v1/memories/${a}?workspace_id=${ws}&hard=true`);
    expect((await edgesOf(ws, b)).body.total_count).toBe(0);
    // The soft-deleted memory's edge is still stored (it is only not followed); the hard-deleted one's is gone.
    expect(await server.app.services.storage.associations.count(ws)).toBe(1);
  });
});

describe('DELETE /v1/memories/{id}/associations/{association_id}', () => {
  it('removes one edge from either end, and 404s for unknown ids or another memory', async () => {
    const ws = await graphWorkspace(api, 'assoc-remove');
    const [a, b, c] = (await remember(api, ws, ['Tea is served at four', 'Biscuits come with tea', 'The kettle is in the hall'])) as [string, string, string];
    const ab = await link(api, ws, a, b, 'related_to');
    const bc = await link(api, ws, b, c, 'related_to');
    expect((await api.delete(`/v1/memories/${c}/associations/${ab.id}?workspace_id=${ws}`)).status).toBe(404);
    expect((await api.delete(`/v1/memories/${b}/associations/${ab.id}?workspace_id=${ws}`)).status).toBe(204);
    expect((await api.delete(`/v1/memories/${b}/associations/${ab.id}?workspace_id=${ws}`)).status).toBe(404);
    expect((await api.delete(`/v1/memories/${b}/associations/${bc.id}?workspace_id=other`)).status).toBe(404);
    expect((await edgesOf(ws, b)).body.associations.map((e: { id: string }) => e.id)).toEqual([bc.id]);
  });
});

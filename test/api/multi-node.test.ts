import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshSchema } from '../support/postgres.js';
import { client, startServer, type Client, type TestServer } from '../support/server.js';
import { testDatabaseUrl } from '../support/test-database.js';

/**
 * Scale-out: API nodes over one PostgreSQL database, a client's calls reaching any of them. Each node keeps a recall
 * cache and live Python sandboxes of its own; neither may leave a node answering from what it held before another
 * node's acknowledged change. Both nodes run in this process on the run's PostgreSQL server; the tests in
 * multi-node-*.test.ts drive separate node processes at once.
 */
describe('two API nodes over one PostgreSQL database', () => {
  let nodeA: TestServer;
  let nodeB: TestServer;
  let a: Client;
  let b: Client;

  beforeAll(async () => {
    const env = { MEMD_STORAGE: 'postgres', MEMD_DATABASE_URL: testDatabaseUrl(), MEMD_DATABASE_SCHEMA: freshSchema(), MEMD_DATABASE_POOL_SIZE: '4' };
    nodeA = await startServer({ env });
    nodeB = await startServer({ env });
    a = client(nodeA.url);
    b = client(nodeB.url);
  });
  afterAll(async () => {
    await nodeB?.stop();
    await nodeA?.stop();
  });

  const recallOnB = async (query: string) => {
    const res = await b.post('/v1/memories/recall', { workspace_id: 'ops', query });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    await nodeB.app.services.recall.flushAccess();
    return res.body as { cached: boolean; memories: Array<{ id: string; content: string }> };
  };

  it('recalls through one node what another acknowledged, never a result cached before the write', async () => {
    expect((await a.post('/v1/workspaces', { id: 'ops', name: 'ops' })).status).toBe(201);
    const created = await a.post('/v1/memories', { workspace_id: 'ops', content: 'The staging database password rotates every Monday.' });
    expect(created.status).toBe(201);
    const id = created.body.memory.id as string;

    const query = 'When does the staging password rotate?';
    expect((await recallOnB(query)).memories.map((m) => m.content)).toContain('The staging database password rotates every Monday.');
    const repeated = await recallOnB(query);
    expect(repeated.cached).toBe(true);

    // Changed through A: B's cached answer is stale and must not be served.
    expect((await a.put(`/v1/memories/${id}`, { workspace_id: 'ops', content: 'The staging database password rotates every Friday.' })).status).toBe(200);
    const afterUpdate = await recallOnB(query);
    expect(afterUpdate.cached).toBe(false);
    expect(afterUpdate.memories.find((m) => m.id === id)?.content).toBe('The staging database password rotates every Friday.');

    const added = await a.post('/v1/memories', { workspace_id: 'ops', content: 'The production database password rotates on the first of each month.' });
    expect(added.status).toBe(201);
    expect((await recallOnB(query)).memories.map((m) => m.id)).toContain(added.body.memory.id);

    expect((await a.delete(`/v1/memories/${id}?workspace_id=ops`)).status).toBe(204);
    expect((await recallOnB(query)).memories.map((m) => m.id)).not.toContain(id);
  });

  it("continues a session's Python sandbox on whichever node the next call reaches", async () => {
    const h = { 'x-session-id': (await a.post('/v1/sessions', { workspace_id: 'ops' })).body.session.id as string };
    const run = async (api: Client, code: string) => {
      const res = await api.post('/v1/context/execute', { code }, h);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body as { result: string | null; error: string | null };
    };
    await run(a, "notes = ['a']");
    expect((await run(b, "notes = notes + ['b']\nnotes")).result).toBe('["a", "b"]');
    // A's sandbox is still live with ['a']: it must continue from what B did, not from what it holds.
    expect((await run(a, "notes = notes + ['a again']\nnotes")).result).toBe('["a", "b", "a again"]');
    expect((await b.delete('/v1/context/cleanup', h)).status).toBe(204);
    expect((await run(a, 'notes')).error).toMatch(/NameError/);
  });

  it('forgets a deleted workspace on every node, also when it is created again under the same id', async () => {
    expect((await a.post('/v1/workspaces', { id: 'scratch', name: 'scratch' })).status).toBe(201);
    expect((await a.post('/v1/memories', { workspace_id: 'scratch', content: 'The scratch bucket is emptied nightly.' })).status).toBe(201);
    const ask = async () => {
      const res = await b.post('/v1/memories/recall', { workspace_id: 'scratch', query: 'scratch bucket' });
      await nodeB.app.services.recall.flushAccess();
      return res;
    };
    expect((await ask()).body.memories).toHaveLength(1);
    expect((await ask()).body.cached).toBe(true);

    expect((await a.delete('/v1/workspaces/scratch')).status).toBe(204);
    expect((await ask()).status).toBe(404);
    expect((await a.post('/v1/workspaces', { id: 'scratch', name: 'scratch again' })).status).toBe(201);
    const fresh = await ask();
    expect(fresh.status).toBe(200);
    expect(fresh.body).toMatchObject({ cached: false, memories: [] });
  });
});

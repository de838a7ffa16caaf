import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_EXPIRE_TASK, SESSION_SWEEP_INTERVAL_MS, SESSION_SWEEP_TASK } from '../../src/core/sessions/expiry.js';
import { freshSchema } from '../support/postgres.js';
import {
  client,
  ManualClock,
  postgresStorageEnv,
  startServer,
  type Client,
  type TestServer,
} from '../support/server.js';

/**
 * Scale-out: three API nodes over one PostgreSQL database, a client's calls reaching any of them, several at once.
 * Each node keeps a recall cache and live Python sandboxes of its own; neither may leave a node answering from what
 * it held before another node's acknowledged change. The nodes run in this process (so they can share a clock the
 * test moves), each with its own connection pool; multi-node-*.test.ts drive node processes.
 */
describe('three API nodes over one PostgreSQL database', () => {
  const clock = new ManualClock();
  let nodeA: TestServer;
  let nodeB: TestServer;
  let servers: TestServer[];
  let a: Client;
  let b: Client;
  let c: Client;

  beforeAll(async () => {
    // Workspaces exist only when created, so that a deleted one answers 404 on every node.
    const env = { ...postgresStorageEnv(freshSchema()), MEMD_WORKSPACE_AUTO_CREATE: 'false' };
    servers = await Promise.all([0, 1, 2].map(() => startServer({ env, clock })));
    [nodeA, nodeB] = servers as [TestServer, TestServer];
    [a, b, c] = servers.map((s) => client(s.url)) as [Client, Client, Client];
  });
  afterAll(async () => {
    for (const server of servers ?? []) await server.stop();
  });

  const recallOnB = async (query: string) => {
    const res = await b.post('/v1/memories/recall', { workspace_id: 'ops', query });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    await nodeB.app.services.recall.flushAccess();
    return res.body as { cached: boolean; memories: Array<{ id: string; content: string }> };
  };

  it('recalls through one node what another acknowledged, never a result cached before the write', async () => {
    expect((await a.post('/v1/workspaces', { id: 'ops', name: 'ops' })).status).toBe(201);
    const created = await a.post('/v1/memories', {
      workspace_id: 'ops',
      content: 'The staging database password rotates every Monday.',
    });
    expect(created.status).toBe(201);
    const id = created.body.memory.id as string;

    const query = 'When does the staging password rotate?';
    expect((await recallOnB(query)).memories.map((m) => m.content)).toContain(
      'The staging database password rotates every Monday.',
    );
    const repeated = await recallOnB(query);
    expect(repeated.cached).toBe(true);

    // Changed through A: B's cached answer is stale and must not be served.
    expect(
      (
        await a.put(`/v1/memories/${id}`, {
          workspace_id: 'ops',
          content: 'The staging database password rotates every Friday.',
        })
      ).status,
    ).toBe(200);
    const afterUpdate = await recallOnB(query);
    expect(afterUpdate.cached).toBe(false);
    expect(afterUpdate.memories.find((m) => m.id === id)?.content).toBe(
      'The staging database password rotates every Friday.',
    );

    const added = await a.post('/v1/memories', {
      workspace_id: 'ops',
      content: 'The production database password rotates on the first of each month.',
    });
    expect(added.status).toBe(201);
    expect((await recallOnB(query)).memories.map((m) => m.id)).toContain(added.body.memory.id);

    expect((await a.delete(`/v1/memories/${id}?workspace_id=ops`)).status).toBe(204);
    expect((await recallOnB(query)).memories.map((m) => m.id)).not.toContain(id);
  });

  it('recalls through every other node, at once, what one node acknowledged, while all three write', async () => {
    expect((await a.post('/v1/workspaces', { id: 'fleet', name: 'fleet' })).status).toBe(201);
    const nodes = [a, b, c];
    const query = { workspace_id: 'fleet', query: 'cargo manifest crate bay', limit: 50, min_relevance: 0 };
    await Promise.all(
      nodes.map(async (writer, w) => {
        const others = nodes.filter((node) => node !== writer);
        for (let i = 0; i < 6; i++) {
          const created = await writer.post('/v1/memories', {
            workspace_id: 'fleet',
            content: `Cargo manifest ${w}-${i}: the crate for bay ${w * 10 + i} holds ${['anchors', 'ropes', 'lamps', 'sails', 'charts', 'buoys'][i]}.`,
          });
          expect(created.status).toBe(201);
          // The same query each time: an answer cached on a node before this write would miss it.
          for (const res of await Promise.all(others.map((node) => node.post('/v1/memories/recall', query)))) {
            expect(res.status).toBe(200);
            expect(res.body.memories.map((m: { id: string }) => m.id)).toContain(created.body.memory.id);
          }
        }
      }),
    );
  });

  it("continues each session's Python sandbox on whichever node its next call reaches, sessions served at once", async () => {
    const nodes = [a, b, c];
    const run = async (api: Client, h: Record<string, string>, code: string) => {
      const res = await api.post('/v1/context/execute', { code }, h);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body as { result: string | null; error: string | null };
    };
    // Each session visits every node, and comes back to one whose sandbox is still live with older state.
    const routes = [
      [0, 1, 2, 0],
      [2, 0, 1, 2],
    ];
    const sessions = await Promise.all(
      routes.map(async () => ({
        'x-session-id': (await a.post('/v1/sessions', { workspace_id: 'ops' })).body.session.id as string,
      })),
    );
    await Promise.all(
      routes.map(async (route, s) => {
        const h = sessions[s]!;
        const expected: string[] = [];
        for (const [step, node] of route.entries()) {
          expected.push(`${s}.${step}`);
          const code = step === 0 ? `notes = ['${s}.0']\nnotes` : `notes = notes + ['${s}.${step}']\nnotes`;
          expect(JSON.parse((await run(nodes[node]!, h, code)).result!)).toEqual(expected);
        }
      }),
    );
    expect((await b.delete('/v1/context/cleanup', sessions[0]!)).status).toBe(204);
    expect((await run(a, sessions[0]!, 'notes')).error).toMatch(/NameError/);
    expect(JSON.parse((await run(b, sessions[1]!, 'notes')).result!)).toEqual(['1.0', '1.1', '1.2', '1.3']);
  }, 300_000);

  it('forgets a deleted workspace on every node, also when it is created again under the same id', async () => {
    expect((await a.post('/v1/workspaces', { id: 'scratch', name: 'scratch' })).status).toBe(201);
    expect(
      (await a.post('/v1/memories', { workspace_id: 'scratch', content: 'The scratch bucket is emptied nightly.' }))
        .status,
    ).toBe(201);
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

  // Last: it moves the shared clock past the sweep.
  it('sweeps expired sessions once, while every node runs the queue at the same time', async () => {
    const nodes = [a, b, c];
    const entries = { editor_preference: 'I always prefer dark mode in the editor', user_name: 'Ana', scratch: 'ok' };
    // A workspace each, so that no session's commit is folded into another's by deduplication.
    const sessions = await Promise.all(
      Array.from({ length: 6 }, async (_, i) => {
        const workspace = `expiring-${i}`;
        const res = await nodes[i % 3]!.post('/v1/sessions', {
          workspace_id: workspace,
          ttl_seconds: 60,
          working_memory: entries,
        });
        expect(res.status).toBe(201);
        return { workspace, id: res.body.session.id as string };
      }),
    );
    clock.advance(SESSION_SWEEP_INTERVAL_MS + 61_000);
    for (let round = 0; round < 2; round++) await Promise.all(servers.map((server) => server.drainTasks()));

    for (const { workspace, id } of sessions) {
      for (const node of nodes) expect((await node.get(`/v1/sessions/${id}`)).status).toBe(404);
      const committed = (
        await c.get(`/v1/memories?workspace_id=${workspace}&session_id=${id}&status=all`)
      ).body.memories.map((m: { content: string }) => m.content);
      expect(committed.sort()).toEqual(['I always prefer dark mode in the editor', 'user name: Ana']);
    }
    // One sweep ran for the slot: its successor is queued once, and no expiry task is left.
    const queued = await nodeA.app.services.storage.tasks.list({ limit: 100 });
    expect(queued.filter((t) => t.kind === SESSION_EXPIRE_TASK)).toEqual([]);
    expect(queued.filter((t) => t.kind === SESSION_SWEEP_TASK)).toMatchObject([
      { status: 'pending', runAt: expect.any(String) },
    ]);
    expect(Date.parse(queued.find((t) => t.kind === SESSION_SWEEP_TASK)!.runAt)).toBeGreaterThan(clock.now().getTime());
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, LogCapture, startServer, type Client, type TestServer } from '../support/server.js';

type Answer = { status: number; body: any };

/**
 * Many calls crossing each other on a few workspaces, sessions, threads and memories, six at a time, background tasks
 * running: writes, changes, deletes (of memories, sessions, threads and whole workspaces), recalls, derivations,
 * exports. Whatever the order they land in, no call answers 5xx and the server logs no error. The calls are drawn
 * from a seeded sequence; their interleaving differs from run to run. A workspace delete met a deadlock with a
 * writer in about one of sixty on PostgreSQL (answered 500, then 409): it is made again, and answers 204 or 404.
 */
describe('calls crossing each other', () => {
  // Without the workspace delete's retry, 3,000 calls failed 2 runs of 2 on PostgreSQL and 2,000 failed 1 of 3; fewer
  // for CI's sake: the burst of six callers with background tasks slows the tests that run beside it.
  const CALLS = 2_000;
  const AT_ONCE = 6;
  let server: TestServer;
  let api: Client;
  const logs = new LogCapture();

  beforeAll(async () => {
    server = await startServer({ logs, backgroundTasks: true });
    api = client(server.url);
  });
  afterAll(() => server.stop());

  it('never answer 5xx or log an error, and a workspace delete answers 204 or 404', async () => {
    let seed = 7;
    const pick = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const workspace = () => `crossing-${pick(3)}`;
    const written: Array<{ workspace: string; id: string }> = [];
    const anyWritten = () => written[pick(Math.max(written.length, 1))];
    const remember = async (answer: Promise<Answer>) => {
      const done = await answer;
      const memory = done.body?.memory;
      if (done.status === 201 && memory) written.push({ workspace: memory.workspace_id, id: memory.id });
      return done;
    };
    const onWritten = (call: (m: { workspace: string; id: string }) => Promise<Answer>) => () => {
      const memory = anyWritten();
      return memory ? call(memory) : api.get('/health');
    };
    const calls: Record<string, () => Promise<Answer>> = {
      write: () =>
        remember(
          api.post('/v1/memories', {
            workspace_id: workspace(),
            content: `Ana noted item ${pick(30)} about topic ${pick(5)}`,
            subject_id: 'ana',
          }),
        ),
      change: onWritten((m) =>
        api.put(`/v1/memories/${m.id}?workspace_id=${m.workspace}`, {
          importance: pick(10) / 10,
          ...(pick(2) ? { content: `Ana changed item ${pick(30)}` } : {}),
        }),
      ),
      forget: onWritten((m) =>
        api.delete(`/v1/memories/${m.id}?workspace_id=${m.workspace}${pick(2) ? '&hard=true' : ''}`),
      ),
      link: onWritten((m) => {
        const other = anyWritten()!;
        return api.post(`/v1/memories/${m.id}/associate`, {
          workspace_id: m.workspace,
          target_id: other.id,
          relationship: 'related_to',
        });
      }),
      dropWorkspace: () => api.delete(`/v1/workspaces/${workspace()}`),
      recall: () => api.post('/v1/memories/recall', { workspace_id: workspace(), query: `topic ${pick(5)}` }),
      openSession: () => api.post('/v1/sessions', { session_id: `crossing-${pick(4)}`, workspace_id: workspace() }),
      setEntry: () => api.post(`/v1/sessions/crossing-${pick(4)}/memory`, { key: `k${pick(3)}`, value: pick(100) }),
      commitSession: () => api.post(`/v1/sessions/crossing-${pick(4)}/commit`, {}),
      endSession: () => api.delete(`/v1/sessions/crossing-${pick(4)}`),
      openThread: () => api.post('/v1/threads', { workspace_id: workspace(), thread_id: `crossing-${pick(3)}` }),
      say: () =>
        api.post(`/v1/threads/crossing-${pick(3)}/messages?workspace_id=${workspace()}`, {
          messages: [{ role: 'user', content: `I like tea number ${pick(9)}` }],
        }),
      decompose: () => api.post(`/v1/threads/crossing-${pick(3)}/decompose?workspace_id=${workspace()}`, {}),
      dropThread: () => api.delete(`/v1/threads/crossing-${pick(3)}?workspace_id=${workspace()}`),
      derive: () => api.post('/v1/entities/ana/derive', { workspace_id: workspace() }),
      scan: () => api.post(`/v1/workspaces/${workspace()}/contradictions/scan`, { batch_size: 10 }),
      batch: () =>
        api.post('/v1/memories/batch', {
          workspace_id: workspace(),
          operations: [0, 1].map(() => ({ op: 'create', content: `A batch item ${pick(30)}` })),
        }),
      skill: () =>
        api.post('/v1/skills', { workspace_id: workspace(), manifest: `---\nname: crossing-${pick(3)}\n---\nSteps\n` }),
      knowledgebase: () => api.post(`/v1/knowledgebase/generate?workspace_id=${workspace()}`, {}),
      graph: () => api.get(`/v1/graph/stats?workspace_id=${workspace()}`),
      export: () => api.get(`/v1/workspaces/${workspace()}/export`),
    };
    const names = Object.keys(calls);
    const failures: string[] = [];
    const answered = new Map<string, Set<number>>();
    let left = CALLS;
    const caller = async () => {
      while (left-- > 0) {
        const name = names[pick(names.length)]!;
        const { status, body } = await calls[name]!();
        answered.set(name, (answered.get(name) ?? new Set()).add(status));
        if (status >= 500) failures.push(`${name}: ${status} ${JSON.stringify(body)}`);
      }
    };
    await Promise.all(Array.from({ length: AT_ONCE }, caller));

    expect(failures).toEqual([]);
    // The calls did their work, not only refusals: writes landed and workspaces were deleted.
    expect(answered.get('write')).toContain(201);
    expect(answered.get('dropWorkspace')).toContain(204);
    for (const status of answered.get('dropWorkspace')!) expect([204, 404]).toContain(status);
    expect(logs.lines.filter((line) => (line.level as number) >= 50)).toEqual([]);
  }, 180_000);
});

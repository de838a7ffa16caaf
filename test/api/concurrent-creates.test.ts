import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, startServer, type Client, type TestServer } from '../support/server.js';

/**
 * The same create sent twice at once (a client retrying a call it thinks was lost, two agents naming one session):
 * one creates, the other is told the id is taken, 409, whichever comes first. On PostgreSQL both passed the check
 * for an existing id and the second insert answered 500 (sessions and workspaces in 15 rounds of 15, contexts and
 * threads in about two of three); two imports of one export stored every memory twice. Several rounds each, since a
 * race shows in some rounds only.
 */
describe('the same create twice at once', () => {
  const ROUNDS = 8;
  let server: TestServer;
  let api: Client;

  beforeAll(async () => {
    server = await startServer();
    api = client(server.url);
    await api.post('/v1/workspaces', { id: 'creates', name: 'creates' });
  });
  afterAll(() => server.stop());

  const twice = async (send: () => Promise<{ status: number }>): Promise<number[]> =>
    (await Promise.all([send(), send()])).map((r) => r.status).sort();

  it('a session, a workspace, a context and a thread of one id: one 201, one 409', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      expect(await twice(() => api.post('/v1/sessions', { session_id: `twice-session-${round}` }))).toEqual([201, 409]);
      expect(await twice(() => api.post('/v1/workspaces', { id: `twice-workspace-${round}`, name: 'x' }))).toEqual([
        201, 409,
      ]);
      expect(
        await twice(() => api.post('/v1/workspaces/creates/contexts', { id: `twice-context-${round}`, name: 'x' })),
      ).toEqual([201, 409]);
      expect(
        await twice(() => api.post('/v1/threads', { workspace_id: 'creates', thread_id: `twice-thread-${round}` })),
      ).toEqual([201, 409]);
    }
  });

  it('two imports of one export store each memory once', async () => {
    await api.post('/v1/memories', { workspace_id: 'exported', content: 'Imported twice at once, stored once.' });
    await api.post('/v1/memories', { workspace_id: 'exported', content: 'And this one as well.' });
    const exported = (await api.get('/v1/workspaces/exported/export')).body as string;
    for (let round = 0; round < ROUNDS; round++) {
      const workspace = `imported-${round}`;
      await api.post('/v1/workspaces', { id: workspace, name: workspace });
      const reports = await Promise.all(
        [0, 1].map(() =>
          api.raw('POST', `/v1/workspaces/${workspace}/import`, exported, { 'content-type': 'application/x-ndjson' }),
        ),
      );
      expect(reports.map((r) => r.status)).toEqual([200, 200]);
      expect(reports.reduce((n, r) => n + r.body.imported, 0)).toBe(2);
      expect(reports.reduce((n, r) => n + r.body.skipped_duplicates, 0)).toBe(2);
      const stored = (await api.get(`/v1/memories?workspace_id=${workspace}`)).body.memories;
      expect(stored.map((m: { content: string }) => m.content).sort()).toEqual([
        'And this one as well.',
        'Imported twice at once, stored once.',
      ]);
    }
  });
});

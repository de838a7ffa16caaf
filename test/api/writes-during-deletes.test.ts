import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, startServer, type Client, type TestServer } from '../support/server.js';

/**
 * A write into something another call deletes at the same moment lands as if the two had come one after the other:
 * written (and then deleted with it, or into a workspace created again by the write), or refused as not found with
 * nothing changed. On PostgreSQL the write had checked its workspace or session before the delete committed, and its
 * insert then failed the foreign key: 500 (a memory into a workspace being deleted in 9 to 15 rounds of 15, a
 * session's working memory in about one of three). Several rounds, since a race shows in some rounds only.
 */
describe('a write while what it writes into is deleted', () => {
  const ROUNDS = 8;
  let server: TestServer;
  let api: Client;

  beforeAll(async () => {
    server = await startServer();
    api = client(server.url);
  });
  afterAll(() => server.stop());

  it('a memory written into a workspace being deleted: 201 or 404, never a memory left in a deleted workspace', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const workspace = `deleted-under-write-${round}`;
      await api.post('/v1/memories', { workspace_id: workspace, content: `Already there, round ${round}.` });
      const content = `Written while the workspace is deleted, round ${round}.`;
      const [written, deleted] = await Promise.all([
        api.post('/v1/memories', { workspace_id: workspace, content }),
        api.delete(`/v1/workspaces/${workspace}`),
      ]);
      expect(deleted.status).toBe(204);
      expect([201, 404], JSON.stringify(written.body)).toContain(written.status);
      const after = await api.get(`/v1/workspaces/${workspace}`);
      const left = (await api.get(`/v1/memories?workspace_id=${workspace}&status=all`)).body.memories;
      if (after.status === 200) {
        // The write came after the delete and created the workspace again: it holds the new memory alone.
        expect(written.status).toBe(201);
        expect(left.map((m: { content: string }) => m.content)).toEqual([content]);
      } else {
        expect(after.status).toBe(404);
        expect(left).toEqual([]);
        if (written.status === 404) expect(written.body).toMatchObject({ code: 'not_found' });
      }
    }
  });

  it("a session's working memory set while the session is deleted: 201 or 404, and the session stays deleted", async () => {
    // Rarer than the workspace's race: more rounds.
    for (let round = 0; round < ROUNDS * 3; round++) {
      const session = `deleted-under-write-${round}`;
      expect((await api.post('/v1/sessions', { session_id: session, workspace_id: 'sessions-deleted' })).status).toBe(
        201,
      );
      const [written, deleted] = await Promise.all([
        api.post(`/v1/sessions/${session}/memory`, { key: 'plan', value: `round ${round}` }),
        api.delete(`/v1/sessions/${session}`),
      ]);
      expect(deleted.status).toBe(204);
      expect([201, 404], JSON.stringify(written.body)).toContain(written.status);
      if (written.status === 404) expect(written.body).toMatchObject({ code: 'not_found' });
      expect((await api.get(`/v1/sessions/${session}`)).status).toBe(404);
      expect((await api.get(`/v1/sessions/${session}/memory`)).status).toBe(404);
    }
  });
  it('a session touched while it is deleted, directly or by a call naming it: 200 or 404, never 500', async () => {
    // Rarer still (5 rounds of 40 on PostgreSQL before the change): more rounds.
    for (let round = 0; round < ROUNDS * 5; round++) {
      const session = `touched-while-deleted-${round}`;
      await api.post('/v1/sessions', { session_id: session, workspace_id: 'sessions-touched' });
      const [touched, deleted, recalled] = await Promise.all([
        api.post(`/v1/sessions/${session}/touch`, {}),
        api.delete(`/v1/sessions/${session}`),
        api.raw('POST', '/v1/memories/recall', JSON.stringify({ workspace_id: 'sessions-touched', query: 'plan' }), {
          'content-type': 'application/json',
          'x-session-id': session,
        }),
      ]);
      expect(deleted.status).toBe(204);
      expect([200, 404], JSON.stringify(touched.body)).toContain(touched.status);
      expect([200, 404], JSON.stringify(recalled.body)).toContain(recalled.status);
      expect((await api.get(`/v1/sessions/${session}`)).status).toBe(404);
    }
  });
});

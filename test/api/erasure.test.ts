import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshSchema, startPglite, type PostgresServer } from '../support/postgres.js';
import { client, startServer, type Client, type TestServer } from '../support/server.js';

const ADMIN_KEY = 'erasure-admin-key';
const ALICE = 'alice@example.org';

interface Engine {
  name: string;
  env(): Promise<Record<string, string>>;
  stop(): Promise<void>;
  /** Starting a Python sandbox takes seconds: one engine is enough to show that erasure stops it. */
  sandbox: boolean;
}

function engines(): Engine[] {
  let pg: PostgresServer | undefined;
  return [
    {
      name: 'sqlite',
      env: async () => ({ MEMD_SANDBOX_CHECKPOINT: 'sync' }),
      stop: async () => undefined,
      sandbox: true,
    },
    {
      name: 'postgres (PGlite)',
      async env() {
        pg = await startPglite();
        return {
          MEMD_STORAGE: 'postgres',
          MEMD_DATABASE_URL: pg.url,
          MEMD_DATABASE_SCHEMA: freshSchema(),
          MEMD_DATABASE_POOL_SIZE: String(pg.maxConnections),
        };
      },
      stop: async () => pg?.stop(),
      sandbox: false,
    },
  ];
}

for (const engine of engines()) {
  describe(`POST /v1/erasures on ${engine.name}`, () => {
    let server: TestServer;
    let admin: Client;
    let keyA: Client;
    let keyId: string;

    /** What alice and bob leave in a workspace: memories, a session with working memory, a thread with messages. */
    async function seed(
      api: Client,
      workspace: string,
    ): Promise<{ aliceMemory: string; aliceSession: string; aliceThread: string }> {
      const memory = await api.post('/v1/memories', {
        workspace_id: workspace,
        content: 'Alice takes her coffee with oat milk.',
        user_id: ALICE,
      });
      expect(memory.status).toBe(201);
      await api.post('/v1/memories', {
        workspace_id: workspace,
        content: 'Bob takes his coffee black.',
        user_id: 'bob',
      });
      const session = (
        await api.post('/v1/sessions', {
          workspace_id: workspace,
          user_id: ALICE,
          working_memory: { order: 'oat latte' },
        })
      ).body.session;
      const thread = await api.post('/v1/threads', { workspace_id: workspace, user_id: ALICE });
      expect(thread.status).toBe(201);
      const threadId: string = thread.body.thread.thread_id;
      const said = await api.post(`/v1/threads/${threadId}/messages?workspace_id=${workspace}`, {
        messages: [{ role: 'user', content: 'An oat latte, please.' }],
      });
      expect(said.status).toBeLessThan(300);
      return { aliceMemory: memory.body.memory.id, aliceSession: session.id, aliceThread: threadId };
    }

    beforeAll(async () => {
      server = await startServer({ env: { MEMD_ADMIN_KEY: ADMIN_KEY, ...(await engine.env()) } });
      admin = client(server.url, { authorization: `Bearer ${ADMIN_KEY}` });
      for (const id of ['team-a', 'team-b'])
        expect((await admin.post('/v1/workspaces', { id, name: id })).status).toBe(201);
      const issued = (await admin.post('/v1/api-keys', { name: 'a', workspaces: ['team-a'] })).body.api_key;
      keyId = issued.id;
      keyA = client(server.url, { authorization: `Bearer ${issued.key}` });
    });
    afterAll(async () => {
      await server.stop();
      await engine.stop();
    });

    it('refuses a request that does not say exactly whom and where, and a workspace the key may not use', async () => {
      for (const body of [
        {},
        { user_id: ALICE, subject_id: 'carol' },
        { user_id: ALICE, workspace_id: 'team-a', all_workspaces: true },
      ]) {
        const response = await keyA.post('/v1/erasures', body);
        expect(response.status, JSON.stringify(body)).toBe(422);
        expect(response.body.code).toBe('validation_error');
      }
      for (const body of [{ user_id: '' }, { user_id: ALICE, everything: true }])
        expect((await keyA.post('/v1/erasures', body)).body.code).toBe('validation_error');
      expect((await keyA.post('/v1/erasures', { user_id: ALICE, workspace_id: 'team-b' })).status).toBe(403);
      expect((await admin.post('/v1/erasures', { user_id: ALICE, workspace_id: 'no-such-team' })).status).toBe(404);
      expect((await client(server.url).post('/v1/erasures', { user_id: ALICE })).status).toBe(401);
    });

    it('removes everything of a user in the workspaces the key may use, recall cache included, and says how much', async () => {
      const a = await seed(keyA, 'team-a');
      const b = await seed(admin, 'team-b');
      await server.drainTasks();
      let liveSandbox = false;
      if (engine.sandbox) {
        const executed = await keyA.post(
          '/v1/context/execute',
          { code: 'order = "oat latte"' },
          { 'x-session-id': a.aliceSession },
        );
        expect(executed.status, JSON.stringify(executed.body)).toBe(200);
        liveSandbox = server.app.services.sandboxes.liveCount === 1;
        expect(liveSandbox).toBe(true);
      }
      const recall = { workspace_id: 'team-a', query: 'how does Alice take her coffee' };
      expect((await keyA.post('/v1/memories/recall', recall)).body.memories.map((m: { id: string }) => m.id)).toContain(
        a.aliceMemory,
      );
      expect((await keyA.post('/v1/memories/recall', recall)).body.cached).toBe(true);

      const erased = await keyA.post('/v1/erasures', { user_id: ALICE, all_workspaces: true });
      expect(erased.status, JSON.stringify(erased.body)).toBe(200);
      expect(erased.body).toMatchObject({
        id: expect.stringMatching(/^erasure_/),
        selector: { user_id: ALICE },
        workspaces: ['team-a'],
      });
      // The memory and its atomic fact; the session with its entry (and checkpoint); the thread with its message.
      expect(erased.body.removed).toMatchObject({
        memories: expect.any(Number),
        sessions: 1,
        working_memory_entries: 1,
        sandbox_checkpoints: engine.sandbox ? 1 : 0,
        threads: 1,
        messages: 1,
      });
      expect(erased.body.removed.memories).toBeGreaterThanOrEqual(1);

      const afterwards = await keyA.post('/v1/memories/recall', recall);
      expect(afterwards.body.memories.map((m: { id: string }) => m.id)).not.toContain(a.aliceMemory);
      expect(afterwards.body.memories.length).toBeGreaterThan(0);
      expect((await keyA.get(`/v1/memories/${a.aliceMemory}?workspace_id=team-a`)).status).toBe(404);
      expect(
        (await keyA.get(`/v1/memories?workspace_id=team-a&user_id=${encodeURIComponent(ALICE)}`)).body.memories,
      ).toEqual([]);
      expect((await keyA.get(`/v1/sessions/${a.aliceSession}`)).status).toBe(404);
      expect((await keyA.get(`/v1/threads/${a.aliceThread}?workspace_id=team-a`)).status).toBe(404);
      if (engine.sandbox) expect(server.app.services.sandboxes.liveCount).toBe(0);
      // Bob stays; so does alice in the workspace the key may not use.
      expect((await keyA.get('/v1/memories?workspace_id=team-a&user_id=bob')).body.memories).toHaveLength(1);
      expect((await admin.get(`/v1/memories/${b.aliceMemory}?workspace_id=team-b`)).status).toBe(200);

      const everywhere = await admin.post('/v1/erasures', { user_id: ALICE, all_workspaces: true });
      expect(everywhere.body.workspaces.sort()).toEqual(['team-a', 'team-b']);
      expect(everywhere.body.removed).toMatchObject({ sessions: 1, threads: 1 });
      expect((await admin.get(`/v1/memories/${b.aliceMemory}?workspace_id=team-b`)).status).toBe(404);
    });

    it('keeps an audit trail for the admin that names nobody: a hash of the selector, who asked, where, how many', async () => {
      expect((await keyA.get('/v1/erasures')).status).toBe(403);
      const listed = await admin.get('/v1/erasures');
      expect(listed.status).toBe(200);
      const hash = createHash('sha256').update(`memd-erasure:user_id:${ALICE}`).digest('hex');
      const forAlice = listed.body.erasures.filter((e: { selector_hash: string }) => e.selector_hash === hash);
      expect(
        forAlice.map((e: { requested_by: string; workspaces: string[] }) => [e.requested_by, e.workspaces.sort()]),
      ).toEqual([
        ['admin', ['team-a', 'team-b']],
        [`key:${keyId}`, ['team-a']],
      ]);
      expect(forAlice[1].removed.threads).toBe(1);
      expect(JSON.stringify(listed.body)).not.toContain('alice');
    });
  });
}

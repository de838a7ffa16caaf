import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock, client, startServer, type Client, type TestServer } from '../support/server.js';

let server: TestServer;
let api: Client;
const clock = new ManualClock();

beforeAll(async () => {
  server = await startServer({ clock });
  api = client(server.url);
});
afterAll(() => server.stop());

describe('sessions and working memory', () => {
  it('creates a session with its workspace and context, and serves its working memory', async () => {
    const created = await api.post('/v1/sessions', { workspace_id: 'sess-ws', context_id: 'ctx-1', ttl_seconds: 120, metadata: { agent: 'a1' }, working_memory: { goal: 'ship' } });
    expect(created.status).toBe(201);
    const session = created.body.session;
    expect(session).toMatchObject({ id: expect.stringMatching(/^sess_[0-9a-f]{32}$/), workspace_id: 'sess-ws', context_id: 'ctx-1', working_memory: { goal: 'ship' }, metadata: { agent: 'a1' } });
    expect(Date.parse(session.expires_at) - Date.parse(session.created_at)).toBe(120_000);
    expect(created.body.briefing).toBeNull();
    expect((await api.get('/v1/workspaces/sess-ws')).status).toBe(200);
    expect((await api.get('/v1/workspaces/sess-ws/contexts')).body.contexts.map((c: { id: string }) => c.id)).toContain('ctx-1');

    const entry = await api.post(`/v1/sessions/${session.id}/memory`, { key: 'plan', value: { steps: [1, 2] }, ttl_seconds: 30 });
    expect(entry.status).toBe(201);
    expect(entry.body).toMatchObject({ key: 'plan', value: { steps: [1, 2] }, ttl_seconds: 30 });
    expect((await api.get(`/v1/sessions/${session.id}/memory`)).body).toEqual({ goal: 'ship', plan: { steps: [1, 2] } });
    expect((await api.get(`/v1/sessions/${session.id}/memory?key=plan`)).body).toEqual({ plan: { steps: [1, 2] } });
    clock.advance(31_000);
    expect((await api.get(`/v1/sessions/${session.id}/memory`)).body).toEqual({ goal: 'ship' });
    expect((await api.get(`/v1/sessions/${session.id}/memory?key=plan`)).status).toBe(404);
  });

  it('slides its expiry on touch and expires after its TTL', async () => {
    const session = (await api.post('/v1/sessions', { workspace_id: 'sess-ws', ttl_seconds: 60 })).body.session;
    clock.advance(50_000);
    const touched = await api.post(`/v1/sessions/${session.id}/touch?extend_seconds=300`);
    expect(touched.body.expires_at).toBe(new Date(clock.now().getTime() + 300_000).toISOString());
    const viaBody = await api.post(`/v1/sessions/${session.id}/touch`, { ttl_seconds: 120 });
    expect(viaBody.body.session.expires_at).toBe(new Date(clock.now().getTime() + 120_000).toISOString());
    clock.advance(121_000);
    expect((await api.get(`/v1/sessions/${session.id}`)).status).toBe(410);
    const listed = async (expired: boolean) => (await api.get(`/v1/sessions?workspace_id=sess-ws&include_expired=${expired}`)).body.sessions.map((s: { id: string }) => s.id);
    expect(await listed(false)).not.toContain(session.id);
    expect(await listed(true)).toContain(session.id);
  });

  it('slides its expiry when a memory is written through it', async () => {
    const session = (await api.post('/v1/sessions', { workspace_id: 'sess-ws', ttl_seconds: 60 })).body.session;
    clock.advance(45_000);
    await api.post('/v1/memories', { content: 'Activity keeps the session alive.' }, { 'x-session-id': session.id });
    clock.advance(45_000);
    expect((await api.get(`/v1/sessions/${session.id}`)).status).toBe(200);
    clock.advance(16_000);
    expect((await api.get(`/v1/sessions/${session.id}`)).status).toBe(410);
  });

  it('deletes a session but keeps the memories written in it', async () => {
    const session = (await api.post('/v1/sessions', { workspace_id: 'sess-ws' })).body.session;
    const memory = (await api.post('/v1/memories', { content: 'Written during the session.' }, { 'x-session-id': session.id })).body.memory;
    expect((await api.delete(`/v1/sessions/${session.id}`)).status).toBe(204);
    expect((await api.get(`/v1/sessions/${session.id}`)).status).toBe(404);
    expect((await api.get(`/v1/memories/${memory.id}?workspace_id=sess-ws`)).body.memory.session_id).toBe(session.id);
    expect((await api.delete(`/v1/sessions/${session.id}`)).status).toBe(404);
  });

  it('refuses bad session input', async () => {
    expect((await api.post('/v1/sessions', { ttl_seconds: 59 })).status).toBe(422);
    expect((await api.post('/v1/sessions', { ttl_seconds: 86_401 })).status).toBe(422);
    const session = (await api.post('/v1/sessions', {})).body.session;
    expect((await api.post('/v1/sessions', { session_id: session.id })).status).toBe(409);
    expect((await api.post(`/v1/sessions/${session.id}/memory`, { value: 1 })).status).toBe(422);
    expect((await api.post(`/v1/sessions/${session.id}/touch?extend_seconds=10`)).status).toBe(422);
    expect((await api.post('/v1/sessions/sess_nope/memory', { key: 'k', value: 1 })).status).toBe(404);
  });
});

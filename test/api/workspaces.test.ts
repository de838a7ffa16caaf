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

describe('workspaces', () => {
  it('creates, reads, renames, lists and deletes', async () => {
    const created = await api.post('/v1/workspaces', { name: 'Research', settings: { lang: 'en' } });
    expect(created.status).toBe(201);
    const ws = created.body.workspace;
    expect(ws).toMatchObject({ id: expect.stringMatching(/^ws_[0-9a-f]{16}$/), name: 'Research', settings: { lang: 'en' }, tenant_id: 'default' });
    expect((await api.get(`/v1/workspaces/${ws.id}`)).body.workspace).toEqual(ws);
    expect((await api.put(`/v1/workspaces/${ws.id}`, { name: 'Research 2' })).body.workspace).toMatchObject({ name: 'Research 2', settings: { lang: 'en' } });
    expect((await api.get('/v1/workspaces')).body.workspaces.map((w: { id: string }) => w.id)).toContain(ws.id);
    expect((await api.delete(`/v1/workspaces/${ws.id}`)).status).toBe(204);
    expect((await api.get(`/v1/workspaces/${ws.id}`)).status).toBe(404);
    expect((await api.delete(`/v1/workspaces/${ws.id}`)).status).toBe(404);
  });

  it('accepts a chosen id once and validates input', async () => {
    expect((await api.post('/v1/workspaces', { id: 'project-x', name: 'X' })).status).toBe(201);
    expect((await api.post('/v1/workspaces', { id: 'project-x', name: 'X' })).status).toBe(409);
    expect((await api.post('/v1/workspaces', { name: '' })).status).toBe(422);
    expect((await api.post('/v1/workspaces', { name: 'x', id: 'has space' })).status).toBe(422);
    expect((await api.put('/v1/workspaces/project-x', {})).status).toBe(422);
    expect((await api.put('/v1/workspaces/nope', { name: 'y' })).status).toBe(404);
  });

  it('auto-creates _default on first use and refuses to delete it', async () => {
    expect((await api.get('/v1/workspaces/_default')).body.workspace.id).toBe('_default');
    const refused = await api.delete('/v1/workspaces/_default');
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('bad_request');
    expect((await api.get('/v1/workspaces/_default')).status).toBe(200);
  });

  it('delete removes memories, sessions, working memory, contexts and edges; nothing else', async () => {
    const ws = (await api.post('/v1/workspaces', { name: 'doomed' })).body.workspace.id;
    const other = (await api.post('/v1/workspaces', { name: 'survivor' })).body.workspace.id;
    const a = (await api.post('/v1/memories', { workspace_id: ws, content: 'first doomed memory' })).body.memory;
    await api.post('/v1/memories', { workspace_id: ws, content: 'second doomed memory', associations: [a.id] });
    const kept = (await api.post('/v1/memories', { workspace_id: other, content: 'kept memory' })).body.memory;
    const session = (await api.post('/v1/sessions', { workspace_id: ws })).body.session;
    await api.post(`/v1/sessions/${session.id}/memory`, { key: 'k', value: 1 });
    await api.post(`/v1/workspaces/${ws}/contexts`, { name: 'ctx' });

    expect((await api.delete(`/v1/workspaces/${ws}`)).status).toBe(204);
    const storage = server.app.services.storage;
    expect(await storage.memories.count(ws, { statuses: ['active', 'archived', 'deleted'] })).toBe(0);
    expect(await storage.associations.count(ws)).toBe(0);
    expect(await storage.sessions.get(session.id)).toBeNull();
    expect(await storage.sessions.entries(session.id, clock.now().toISOString())).toEqual([]);
    expect(await storage.contexts.list(ws)).toEqual([]);
    expect((await api.get(`/v1/memories/${a.id}?workspace_id=${ws}`)).status).toBe(404);
    expect((await api.get(`/v1/memories/${kept.id}?workspace_id=${other}`)).status).toBe(200);
  });

  it('describes its schema: 4 memory types, 63 relationship types, 13 subtypes', async () => {
    const schema = (await api.get('/v1/workspaces/_default/schema')).body;
    expect(schema.memory_types).toEqual(['episodic', 'semantic', 'procedural', 'working']);
    expect(schema.relationship_types).toHaveLength(63);
    expect(new Set(schema.relationship_types).size).toBe(63);
    expect(schema.relationship_types).toEqual(expect.arrayContaining(['similar_to', 'refines', 'follows_temporally', 'referenced_by', 'parent_of']));
    expect(schema.memory_subtypes).toHaveLength(13);
    expect(schema.memory_subtypes).toContain('inference');
    expect(schema.can_customize).toBe(false);
    expect((await api.get('/v1/workspaces/nope/schema')).status).toBe(404);
  });

  it('creates and lists contexts', async () => {
    const ws = (await api.post('/v1/workspaces', { name: 'ctx' })).body.workspace.id;
    const created = await api.post(`/v1/workspaces/${ws}/contexts`, { name: 'Planning', description: 'Q3 planning' });
    expect(created.status).toBe(201);
    expect(created.body.context).toMatchObject({ id: expect.stringMatching(/^ctx_/), name: 'Planning', description: 'Q3 planning', workspace_id: ws });
    const listed = (await api.get(`/v1/workspaces/${ws}/contexts`)).body.contexts.map((c: { id: string }) => c.id);
    expect(listed).toEqual(['_default', created.body.context.id]);
    expect((await api.post(`/v1/workspaces/${ws}/contexts`, { name: '' })).status).toBe(422);
    expect((await api.get('/v1/workspaces/nope/contexts')).status).toBe(404);
  });
});

describe('workspace resolution', () => {
  it('takes the body first, then X-Workspace-ID, then the session, then _default', async () => {
    await api.post('/v1/workspaces', { id: 'ws-body', name: 'b' });
    await api.post('/v1/workspaces', { id: 'ws-header', name: 'h' });
    const session = (await api.post('/v1/sessions', { workspace_id: 'ws-session' })).body.session;
    const where = async (body: Record<string, unknown>, headers: Record<string, string>) =>
      (await api.post('/v1/memories', { content: `resolution probe ${Math.random()}`, ...body }, headers)).body.memory.workspace_id;
    expect(await where({ workspace_id: 'ws-body' }, { 'x-workspace-id': 'ws-header', 'x-session-id': session.id })).toBe('ws-body');
    expect(await where({}, { 'x-workspace-id': 'ws-header', 'x-session-id': session.id })).toBe('ws-header');
    expect(await where({}, { 'x-session-id': session.id })).toBe('ws-session');
    expect(await where({}, {})).toBe('_default');
  });

  it('gives memories written with X-Session-ID the session and its context', async () => {
    const session = (await api.post('/v1/sessions', { workspace_id: 'ws-ctx', context_id: 'sprint-9', user_id: 'u7' })).body.session;
    const memory = (await api.post('/v1/memories', { content: 'Standup moved to 10:00.' }, { 'x-session-id': session.id })).body.memory;
    expect(memory).toMatchObject({ workspace_id: 'ws-ctx', session_id: session.id, context_id: 'sprint-9', user_id: 'u7' });
  });

  it('refuses an unknown session (404) and an expired one (410) instead of falling back to _default', async () => {
    const unknown = await api.post('/v1/memories', { content: 'lost' }, { 'x-session-id': 'sess_unknown' });
    expect(unknown.status).toBe(404);
    const session = (await api.post('/v1/sessions', { workspace_id: 'ws-exp', ttl_seconds: 60 })).body.session;
    clock.advance(61_000);
    const expired = await api.post('/v1/memories', { content: 'too late' }, { 'x-session-id': session.id });
    expect(expired.status).toBe(410);
    expect(expired.body.code).toBe('gone');
  });
});

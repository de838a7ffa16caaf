import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, startServer, startTwoTeams, type Client, type TestServer, type TwoTeams } from '../support/server.js';

describe('workspaces created on first use', () => {
  let server: TestServer;
  let api: Client;

  beforeAll(async () => {
    server = await startServer();
    api = client(server.url);
  });
  afterAll(() => server.stop());

  it('creates the workspace a write, a read or a header names for the first time (no auth)', async () => {
    expect((await api.get('/v1/workspaces/project-alpha')).status).toBe(404);
    const written = await api.post('/v1/memories', {
      workspace_id: 'project-alpha',
      content: 'Alpha uses PostgreSQL.',
    });
    expect(written.status).toBe(201);
    expect((await api.get('/v1/workspaces/project-alpha')).body.workspace).toMatchObject({
      id: 'project-alpha',
      name: 'project-alpha',
    });
    expect(
      (await api.get('/v1/workspaces/project-alpha/contexts')).body.contexts.map((c: { id: string }) => c.id),
    ).toEqual(['_default']);

    expect((await api.get('/v1/threads', { 'x-workspace-id': 'project-beta' })).body).toEqual({
      threads: [],
      total_count: 0,
    });
    expect((await api.get('/v1/workspaces/project-beta')).status).toBe(200);
    expect(
      (await api.post('/v1/memories/recall', { query: 'anything' }, { 'x-workspace-id': 'project-gamma' })).body
        .memories,
    ).toEqual([]);
    const listed = await api.get('/v1/memories?workspace_id=project-delta');
    expect([listed.status, listed.body.memories]).toEqual([200, []]);
    expect((await api.get('/v1/workspaces')).body.workspaces.map((w: { id: string }) => w.id)).toEqual(
      expect.arrayContaining(['project-alpha', 'project-beta', 'project-gamma', 'project-delta']),
    );
  });

  it('keeps 404 for routes that address the workspace itself, and creates nothing there', async () => {
    expect((await api.get('/v1/workspaces/never-made')).status).toBe(404);
    expect((await api.get('/v1/workspaces/never-made/export')).status).toBe(404);
    expect((await api.get('/v1/workspaces/never-made/schema')).status).toBe(404);
    expect((await api.get('/v1/workspaces/never-made/contradictions')).status).toBe(404);
    expect(
      (await api.post('/v1/workspaces/never-made/import', { data: { memories: [], associations: [] } })).status,
    ).toBe(404);
    expect((await api.put('/v1/workspaces/never-made', { name: 'x' })).status).toBe(404);
    expect((await api.delete('/v1/workspaces/never-made')).status).toBe(404);
    expect((await api.get('/v1/workspaces')).body.workspaces.map((w: { id: string }) => w.id)).not.toContain(
      'never-made',
    );
  });

  it('a refused call leaves no workspace behind; one that existed before stays, with what it holds', async () => {
    const refusedWrite = await api.post('/v1/memories', {
      workspace_id: 'refused-write',
      content: 'Linked to a memory that is not there.',
      associations: ['mem_not_there'],
    });
    expect(refusedWrite.status).toBe(422);
    expect((await api.get('/v1/workspaces/refused-write')).status).toBe(404);

    const session = (await api.post('/v1/sessions', {})).body.session;
    const taken = await api.post('/v1/sessions', { workspace_id: 'refused-session', session_id: session.id });
    expect(taken.status).toBe(409);
    expect((await api.get('/v1/workspaces/refused-session')).status).toBe(404);

    expect((await api.get('/v1/memories?workspace_id=read-first')).status).toBe(200);
    expect((await api.post('/v1/memories', { workspace_id: 'written-first', content: 'Kept.' })).status).toBe(201);
    for (const workspace_id of ['read-first', 'written-first']) {
      const refused = await api.post('/v1/memories', { workspace_id, content: 'x', associations: ['mem_not_there'] });
      expect(refused.status).toBe(422);
      expect((await api.get(`/v1/workspaces/${workspace_id}`)).status).toBe(200);
    }
    expect(
      (await api.get('/v1/memories?workspace_id=written-first')).body.memories.map(
        (m: { content: string }) => m.content,
      ),
    ).toEqual(['Kept.']);

    const listed = (await api.get('/v1/workspaces')).body.workspaces.map((w: { id: string }) => w.id);
    expect(listed).toEqual(expect.arrayContaining(['read-first', 'written-first']));
    expect(listed).not.toContain('refused-write');
    expect(listed).not.toContain('refused-session');
  });

  it('keeps a new workspace that a write fills while a refused call that created it fails', async () => {
    for (let round = 0; round < 20; round++) {
      const workspace_id = `first-use-race-${round}`;
      const [refused, accepted] = await Promise.all([
        api.post('/v1/memories', { workspace_id, content: 'Linked to nothing.', associations: ['mem_not_there'] }),
        api.post('/v1/memories', { workspace_id, content: `Written on first use, round ${round}.` }),
      ]);
      expect([refused.status, accepted.status]).toEqual([422, 201]);
      expect((await api.get(`/v1/memories/${accepted.body.memory.id}?workspace_id=${workspace_id}`)).status).toBe(200);
    }
  });

  it('does not create a workspace for a record looked up by id from it', async () => {
    const memory = (await api.post('/v1/memories', { content: 'In the default workspace.' })).body.memory;
    expect((await api.get(`/v1/memories/${memory.id}?workspace_id=looked-up-only`)).status).toBe(404);
    expect((await api.get('/v1/workspaces/looked-up-only')).status).toBe(404);
  });
});

describe('workspaces created on first use, with API keys', () => {
  let teams: TwoTeams;

  beforeAll(async () => {
    teams = await startTwoTeams();
  });
  afterAll(() => teams.server.stop());

  it('the admin key creates; a workspace key never does', async () => {
    const { admin, server } = teams;
    expect((await admin.post('/v1/memories', { workspace_id: 'admin-made', content: 'x' })).status).toBe(201);
    expect((await admin.get('/v1/workspaces/admin-made')).status).toBe(200);

    const issued = await admin.post('/v1/api-keys', { name: 'future', workspaces: ['not-yet'] });
    const future = client(server.url, { authorization: `Bearer ${issued.body.api_key.key}` });
    const refused = await future.post('/v1/memories', { content: 'x' });
    expect(refused.status).toBe(404);
    expect(refused.body.message).toContain('not-yet');
    expect((await admin.get('/v1/workspaces/not-yet')).status).toBe(404);
  });
});

describe('MEMD_WORKSPACE_AUTO_CREATE=false', () => {
  let server: TestServer;
  let api: Client;

  beforeAll(async () => {
    server = await startServer({ env: { MEMD_WORKSPACE_AUTO_CREATE: 'false' } });
    api = client(server.url);
  });
  afterAll(() => server.stop());

  it('answers 404 until the workspace is created; _default and sessions still create theirs', async () => {
    const refused = await api.post('/v1/memories', { workspace_id: 'project-alpha', content: 'x' });
    expect(refused.status).toBe(404);
    expect(refused.body.code).toBe('not_found');
    expect((await api.post('/v1/memories/recall', { workspace_id: 'project-alpha', query: 'x' })).status).toBe(404);
    expect((await api.get('/v1/workspaces/project-alpha')).status).toBe(404);

    expect((await api.post('/v1/memories', { content: 'into _default' })).status).toBe(201);
    expect((await api.post('/v1/sessions', { workspace_id: 'session-made' })).status).toBe(201);
    expect((await api.get('/v1/workspaces/session-made')).status).toBe(200);

    await api.post('/v1/workspaces', { id: 'project-alpha', name: 'Alpha' });
    expect((await api.post('/v1/memories', { workspace_id: 'project-alpha', content: 'x' })).status).toBe(201);
  });
});

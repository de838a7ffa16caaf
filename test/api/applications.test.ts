import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, startServer, startTwoTeams, type Client, type TestServer } from '../support/server.js';

let server: TestServer;
let api: Client;

beforeAll(async () => {
  server = await startServer();
  api = client(server.url);
  await api.post('/v1/workspaces', { id: 'team-a', name: 'A' });
  await api.post('/v1/workspaces', { id: 'team-b', name: 'B' });
});
afterAll(() => server.stop());

describe('applications', () => {
  it('creates with defaults, reads, changes only what is sent, deletes', async () => {
    const created = await api.post('/v1/applications', { name: 'Support bot' });
    expect(created.status).toBe(201);
    const app = created.body;
    expect(app).toEqual({
      id: expect.stringMatching(/^app_[0-9a-f]{16}$/),
      tenant_id: 'default',
      name: 'Support bot',
      description: null,
      app_type: 'generic',
      enabled: true,
      config: {},
      metadata: {},
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect((await api.get(`/v1/applications/${app.id}`)).body).toEqual(app);

    const full = (await api.post('/v1/applications', { name: 'Agent', description: 'does things', app_type: 'agent', enabled: false, config: { model: 'x' }, metadata: { team: 'ml' } })).body;
    expect(full).toMatchObject({ app_type: 'agent', enabled: false, description: 'does things', config: { model: 'x' }, metadata: { team: 'ml' } });

    const changed = await api.put(`/v1/applications/${full.id}`, { enabled: true, description: null });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ name: 'Agent', app_type: 'agent', enabled: true, description: null, config: { model: 'x' }, metadata: { team: 'ml' } });

    expect((await api.delete(`/v1/applications/${full.id}`)).status).toBe(204);
    expect((await api.get(`/v1/applications/${full.id}`)).status).toBe(404);
    expect((await api.delete(`/v1/applications/${full.id}`)).status).toBe(404);
    expect((await api.put(`/v1/applications/${full.id}`, { name: 'x' })).status).toBe(404);
  });

  it('refuses bad input and changes nothing', async () => {
    for (const body of [{}, { name: '' }, { name: '   ' }, { name: 'x', app_type: 'robot' }, { name: 'x', enabled: 'yes' }, { name: 'x', config: [] }, { name: 'x', color: 'red' }]) {
      const res = await api.post('/v1/applications', body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.code).toBe('validation_error');
    }
    const app = (await api.post('/v1/applications', { name: 'Stable' })).body;
    expect((await api.put(`/v1/applications/${app.id}`, {})).status).toBe(422);
    expect((await api.put(`/v1/applications/${app.id}`, { name: '' })).status).toBe(422);
    expect((await api.get(`/v1/applications/${app.id}`)).body).toEqual(app);
  });

  it('lists oldest first with limit, offset and total_count', async () => {
    const fresh = await startServer();
    try {
      const c = client(fresh.url);
      for (const name of ['one', 'two', 'three']) await c.post('/v1/applications', { name });
      const page = await c.get('/v1/applications?limit=2&offset=1');
      expect(page.status).toBe(200);
      expect(page.body.total_count).toBe(3);
      expect(page.body.applications.map((a: { name: string }) => a.name)).toEqual(['two', 'three']);
      expect((await c.get('/v1/applications')).body.applications).toHaveLength(3);
      expect((await c.get('/v1/applications?limit=0')).status).toBe(422);
      expect((await c.get('/v1/applications?limit=201')).status).toBe(422);
    } finally {
      await fresh.stop();
    }
  });

  it('links to workspaces with overrides merged over the config (RFC 7386), and disables without unlinking', async () => {
    const app = (await api.post('/v1/applications', { name: 'Chat', app_type: 'chat', config: { model: { name: 'small', temperature: 0.2 }, tools: ['search', 'code'], greeting: 'hi' } })).body;

    const linked = await api.post(`/v1/applications/${app.id}/workspaces/team-a`, { config_overrides: { model: { temperature: 0.9 }, tools: ['search'], greeting: null } });
    expect(linked.status).toBe(201);
    expect(linked.body).toMatchObject({ application_id: app.id, workspace_id: 'team-a', enabled: true, config_overrides: { model: { temperature: 0.9 }, tools: ['search'], greeting: null } });

    const inA = await api.get('/v1/workspaces/team-a/applications');
    expect(inA.status).toBe(200);
    const entry = inA.body.applications.find((a: { id: string }) => a.id === app.id);
    expect(entry.effective_config).toEqual({ model: { name: 'small', temperature: 0.9 }, tools: ['search'] });
    expect(entry).toMatchObject({ name: 'Chat', config: app.config, effective_enabled: true, association: { enabled: true } });
    expect((await api.get('/v1/workspaces/team-b/applications')).body.applications.find((a: { id: string }) => a.id === app.id)).toBeUndefined();

    // Changing the link keeps what is not sent.
    const disabled = await api.post(`/v1/applications/${app.id}/workspaces/team-a`, { enabled: false });
    expect(disabled.status).toBe(200);
    expect(disabled.body).toMatchObject({ enabled: false, config_overrides: { tools: ['search'] }, created_at: linked.body.created_at });
    const still = (await api.get('/v1/workspaces/team-a/applications')).body.applications.find((a: { id: string }) => a.id === app.id);
    expect(still).toMatchObject({ effective_enabled: false, association: { enabled: false } });
    expect(still.effective_config.model).toEqual({ name: 'small', temperature: 0.9 });

    // An application disabled as a whole is disabled everywhere, whatever its links say.
    await api.post(`/v1/applications/${app.id}/workspaces/team-b`, {});
    await api.put(`/v1/applications/${app.id}`, { enabled: false });
    const inB = (await api.get('/v1/workspaces/team-b/applications')).body;
    expect(inB.applications.find((a: { id: string }) => a.id === app.id)).toMatchObject({ association: { enabled: true }, effective_enabled: false, effective_config: app.config });

    expect((await api.delete(`/v1/applications/${app.id}/workspaces/team-a`)).status).toBe(204);
    expect((await api.delete(`/v1/applications/${app.id}/workspaces/team-a`)).status).toBe(404);
    expect((await api.get('/v1/workspaces/team-a/applications')).body.applications.find((a: { id: string }) => a.id === app.id)).toBeUndefined();
  });

  it('answers 404 for unknown applications and workspaces, 422 for bad links', async () => {
    const app = (await api.post('/v1/applications', { name: 'Linker' })).body;
    expect((await api.post('/v1/applications/app_0000000000000000/workspaces/team-a', {})).status).toBe(404);
    expect((await api.post(`/v1/applications/${app.id}/workspaces/nowhere`, {})).status).toBe(404);
    expect((await api.get('/v1/workspaces/nowhere/applications')).status).toBe(404);
    expect((await api.post(`/v1/applications/${app.id}/workspaces/team-a`, { enabled: 1 })).status).toBe(422);
    expect((await api.post(`/v1/applications/${app.id}/workspaces/team-a`, { config_overrides: 'x' })).status).toBe(422);
    expect((await api.get('/v1/workspaces/team-a/applications')).body.applications.find((a: { id: string }) => a.id === app.id)).toBeUndefined();
  });

  it('follows a deleted workspace: its links go, the application stays', async () => {
    await api.post('/v1/workspaces', { id: 'short-lived', name: 'S' });
    const app = (await api.post('/v1/applications', { name: 'Survivor' })).body;
    await api.post(`/v1/applications/${app.id}/workspaces/short-lived`, {});
    expect((await api.delete('/v1/workspaces/short-lived')).status).toBe(204);
    expect((await api.get(`/v1/applications/${app.id}`)).status).toBe(200);
  });
});

describe('the registries in the OpenAPI document', () => {
  it('lists every registry route, generated from the route schemas', async () => {
    const doc = (await api.get('/openapi.json')).body;
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/v1/applications',
        '/v1/applications/{app_id}',
        '/v1/applications/{app_id}/workspaces/{workspace_id}',
        '/v1/workspaces/{workspace_id}/applications',
        '/v1/skills',
        '/v1/skills/resolve',
        '/v1/skills/{skill_id}',
        '/v1/skills/{skill_id}/manifest',
        '/v1/skills/{skill_id}/files',
        '/v1/skills/{skill_id}/files/{*}',
        '/v1/skills/{skill_id}/bundle',
        '/v1/skills/{skill_id}/sync',
        '/v1/mcp-servers',
        '/v1/mcp-servers/resolve',
        '/v1/mcp-servers/import',
        '/v1/mcp-servers/export',
        '/v1/mcp-servers/{server_id}',
        '/v1/mcp-servers/{server_id}/sync',
        '/v1/data-providers',
        '/v1/data-providers/{provider_id}',
        '/v1/data-providers/{provider_id}/sync',
      ]),
    );
    expect(doc.paths['/v1/applications'].post.requestBody.content['application/json'].schema.properties.app_type.enum).toEqual(['generic', 'chat', 'agent', 'tool']);
    const provider = doc.paths['/v1/data-providers/{provider_id}'].get.responses['200'].content['application/json'].schema.properties.data_provider;
    expect(Object.keys(provider.properties)).toContain('has_encrypted_args');
    expect(Object.keys(provider.properties)).not.toContain('encrypted_args');
  });
});

describe('applications with auth on', () => {
  let secured: TestServer;
  let admin: Client;
  let keyA: Client;

  beforeAll(async () => {
    ({ server: secured, admin, keyA } = await startTwoTeams());
  });
  afterAll(() => secured.stop());

  it('lets only the admin write; a workspace key reads the applications linked to its workspaces', async () => {
    expect((await keyA.post('/v1/applications', { name: 'mine' })).status).toBe(403);
    const inA = (await admin.post('/v1/applications', { name: 'in A', config: { k: 1 } })).body;
    const inB = (await admin.post('/v1/applications', { name: 'in B' })).body;
    const nowhere = (await admin.post('/v1/applications', { name: 'unlinked' })).body;
    await admin.post(`/v1/applications/${inA.id}/workspaces/team-a`, { enabled: false });
    await admin.post(`/v1/applications/${inB.id}/workspaces/team-b`, {});

    const listed = await keyA.get('/v1/applications');
    expect(listed.body.applications.map((a: { id: string }) => a.id)).toEqual([inA.id]);
    expect(listed.body.total_count).toBe(1);
    expect((await admin.get('/v1/applications')).body.total_count).toBe(3);
    expect((await keyA.get(`/v1/applications/${inA.id}`)).status).toBe(200);
    expect((await keyA.get(`/v1/applications/${inB.id}`)).status).toBe(404);
    expect((await keyA.get(`/v1/applications/${nowhere.id}`)).status).toBe(404);
    expect((await keyA.get('/v1/workspaces/team-a/applications')).body.applications.map((a: { id: string }) => a.id)).toEqual([inA.id]);
    expect((await keyA.get('/v1/workspaces/team-b/applications')).status).toBe(403);

    expect((await keyA.put(`/v1/applications/${inA.id}`, { name: 'renamed' })).status).toBe(403);
    expect((await keyA.delete(`/v1/applications/${inA.id}`)).status).toBe(403);
    expect((await keyA.post(`/v1/applications/${inA.id}/workspaces/team-a`, { enabled: true })).status).toBe(403);
    expect((await keyA.delete(`/v1/applications/${inA.id}/workspaces/team-a`)).status).toBe(403);
    expect((await admin.get(`/v1/applications/${inA.id}`)).body.name).toBe('in A');
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ForbiddenError, MemdClient, NotFoundError, ValidationError } from '../../packages/client/src/index.js';
import { startServer, type TestServer } from '../support/server.js';

let server: TestServer;
let memd: MemdClient;

beforeAll(async () => {
  server = await startServer();
  memd = new MemdClient({ baseUrl: server.url });
  await memd.workspaces.create({ id: 'team-a', name: 'A' });
  await memd.workspaces.create({ id: 'team-b', name: 'B' });
});
afterAll(() => server.stop());

/** A body the API refuses, sent as is: the types would not let it be written otherwise. */
const invalid = (body: object) => body as never;

describe('applications', () => {
  it('creates with defaults, reads, changes only what is sent, deletes', async () => {
    const created = await memd.applications.create.withResponse({ name: 'Support bot' });
    expect(created.status).toBe(201);
    const app = created.data;
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
    expect(await memd.applications.get(app.id)).toEqual(app);

    const full = await memd.applications.create({
      name: 'Agent',
      description: 'does things',
      app_type: 'agent',
      enabled: false,
      config: { model: 'x' },
      metadata: { team: 'ml' },
    });
    expect(full).toMatchObject({
      app_type: 'agent',
      enabled: false,
      description: 'does things',
      config: { model: 'x' },
      metadata: { team: 'ml' },
    });

    const changed = await memd.applications.update.withResponse(full.id, { enabled: true, description: null });
    expect(changed.status).toBe(200);
    expect(changed.data).toMatchObject({
      name: 'Agent',
      app_type: 'agent',
      enabled: true,
      description: null,
      config: { model: 'x' },
      metadata: { team: 'ml' },
    });

    expect((await memd.applications.delete.withResponse(full.id)).status).toBe(204);
    await expect(memd.applications.get(full.id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(memd.applications.delete(full.id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(memd.applications.update(full.id, { name: 'x' })).rejects.toBeInstanceOf(NotFoundError);
  });

  it('refuses bad input and changes nothing', async () => {
    for (const body of [
      {},
      { name: '' },
      { name: '   ' },
      { name: 'x', app_type: 'robot' },
      { name: 'x', enabled: 'yes' },
      { name: 'x', config: [] },
      { name: 'x', color: 'red' },
    ]) {
      const refused = memd.applications.create(invalid(body));
      await expect(refused, JSON.stringify(body)).rejects.toBeInstanceOf(ValidationError);
      await expect(refused).rejects.toMatchObject({ status: 422, code: 'validation_error' });
    }
    const app = await memd.applications.create({ name: 'Stable' });
    await expect(memd.applications.update(app.id, {})).rejects.toMatchObject({ status: 422 });
    await expect(memd.applications.update(app.id, { name: '' })).rejects.toMatchObject({ status: 422 });
    expect(await memd.applications.get(app.id)).toEqual(app);
  });

  it('lists oldest first with limit, offset and total_count', async () => {
    const fresh = await startServer();
    try {
      const c = new MemdClient({ baseUrl: fresh.url });
      for (const name of ['one', 'two', 'three']) await c.applications.create({ name });
      const page = await c.applications.list.withResponse({ limit: 2, offset: 1 });
      expect(page.status).toBe(200);
      expect(page.data.total_count).toBe(3);
      expect(page.data.applications.map((a) => a.name)).toEqual(['two', 'three']);
      expect((await c.applications.list()).applications).toHaveLength(3);
      await expect(c.applications.list({ limit: 0 })).rejects.toMatchObject({ status: 422 });
      await expect(c.applications.list({ limit: 201 })).rejects.toMatchObject({ status: 422 });
    } finally {
      await fresh.stop();
    }
  });

  it('links to workspaces with overrides merged over the config (RFC 7386), and disables without unlinking', async () => {
    const app = await memd.applications.create({
      name: 'Chat',
      app_type: 'chat',
      config: { model: { name: 'small', temperature: 0.2 }, tools: ['search', 'code'], greeting: 'hi' },
    });
    const linkedIn = async (workspaceId: string) =>
      (await memd.applications.inWorkspace(workspaceId)).applications.find((a) => a.id === app.id);

    const linked = await memd.applications.link.withResponse(app.id, 'team-a', {
      config_overrides: { model: { temperature: 0.9 }, tools: ['search'], greeting: null },
    });
    expect(linked.status).toBe(201);
    expect(linked.data).toMatchObject({
      application_id: app.id,
      workspace_id: 'team-a',
      enabled: true,
      config_overrides: { model: { temperature: 0.9 }, tools: ['search'], greeting: null },
    });

    const inA = await memd.applications.inWorkspace.withResponse('team-a');
    expect(inA.status).toBe(200);
    const entry = inA.data.applications.find((a) => a.id === app.id)!;
    expect(entry.effective_config).toEqual({ model: { name: 'small', temperature: 0.9 }, tools: ['search'] });
    expect(entry).toMatchObject({
      name: 'Chat',
      config: app.config,
      effective_enabled: true,
      association: { enabled: true },
    });
    expect(await linkedIn('team-b')).toBeUndefined();

    // Changing the link keeps what is not sent.
    const disabled = await memd.applications.link.withResponse(app.id, 'team-a', { enabled: false });
    expect(disabled.status).toBe(200);
    expect(disabled.data).toMatchObject({
      enabled: false,
      config_overrides: { tools: ['search'] },
      created_at: linked.data.created_at,
    });
    const still = (await linkedIn('team-a'))!;
    expect(still).toMatchObject({ effective_enabled: false, association: { enabled: false } });
    expect(still.effective_config.model).toEqual({ name: 'small', temperature: 0.9 });

    // An application disabled as a whole is disabled everywhere, whatever its links say.
    await memd.applications.link(app.id, 'team-b', {});
    await memd.applications.update(app.id, { enabled: false });
    expect(await linkedIn('team-b')).toMatchObject({
      association: { enabled: true },
      effective_enabled: false,
      effective_config: app.config,
    });

    expect((await memd.applications.unlink.withResponse(app.id, 'team-a')).status).toBe(204);
    await expect(memd.applications.unlink(app.id, 'team-a')).rejects.toBeInstanceOf(NotFoundError);
    expect(await linkedIn('team-a')).toBeUndefined();
  });

  it('answers 404 for unknown applications and workspaces, 422 for bad links', async () => {
    const app = await memd.applications.create({ name: 'Linker' });
    await expect(memd.applications.link('app_0000000000000000', 'team-a', {})).rejects.toBeInstanceOf(NotFoundError);
    await expect(memd.applications.link(app.id, 'nowhere', {})).rejects.toBeInstanceOf(NotFoundError);
    await expect(memd.applications.inWorkspace('nowhere')).rejects.toBeInstanceOf(NotFoundError);
    await expect(memd.applications.link(app.id, 'team-a', invalid({ enabled: 1 }))).rejects.toMatchObject({
      status: 422,
    });
    await expect(memd.applications.link(app.id, 'team-a', invalid({ config_overrides: 'x' }))).rejects.toMatchObject({
      status: 422,
    });
    expect((await memd.applications.inWorkspace('team-a')).applications.find((a) => a.id === app.id)).toBeUndefined();
  });

  it('follows a deleted workspace: its links go, the application stays', async () => {
    await memd.workspaces.create({ id: 'short-lived', name: 'S' });
    const app = await memd.applications.create({ name: 'Survivor' });
    await memd.applications.link(app.id, 'short-lived', {});
    expect((await memd.workspaces.delete.withResponse('short-lived')).status).toBe(204);
    expect((await memd.applications.get.withResponse(app.id)).status).toBe(200);
  });
});

describe('the registries in the OpenAPI document', () => {
  it('lists every registry route, generated from the route schemas', async () => {
    // The document itself is not an operation of the API, so it is fetched untyped.
    const doc = (await memd.request<any>('GET', '/openapi.json')).data;
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
    expect(
      doc.paths['/v1/applications'].post.requestBody.content['application/json'].schema.properties.app_type.enum,
    ).toEqual(['generic', 'chat', 'agent', 'tool']);
    // A data provider is one named shape: the stored record without its sealed secrets, saying whether they are set.
    expect(
      doc.paths['/v1/data-providers/{provider_id}'].get.responses['200'].content['application/json'].schema.properties
        .data_provider,
    ).toEqual({ $ref: '#/components/schemas/DataProvider' });
    const provider = doc.components.schemas.DataProvider;
    expect(Object.keys(provider.properties)).toContain('has_encrypted_args');
    expect(Object.keys(provider.properties)).not.toContain('encrypted_args');
    expect(Object.keys(provider.properties)).not.toContain('sealed_args');
  });
});

describe('applications with auth on', () => {
  const adminKey = 'admin-secret-for-tests';
  let secured: TestServer;
  let admin: MemdClient;
  let keyA: MemdClient;

  beforeAll(async () => {
    secured = await startServer({ env: { MEMD_ADMIN_KEY: adminKey } });
    admin = new MemdClient({ baseUrl: secured.url, apiKey: adminKey });
    await admin.workspaces.create({ id: 'team-a', name: 'A' });
    await admin.workspaces.create({ id: 'team-b', name: 'B' });
    const { api_key } = await admin.apiKeys.create({ name: 'a', workspaces: ['team-a'] });
    keyA = new MemdClient({ baseUrl: secured.url, apiKey: api_key.key });
  });
  afterAll(() => secured.stop());

  it('lets only the admin write; a workspace key reads the applications linked to its workspaces', async () => {
    await expect(keyA.applications.create({ name: 'mine' })).rejects.toBeInstanceOf(ForbiddenError);
    const inA = await admin.applications.create({ name: 'in A', config: { k: 1 } });
    const inB = await admin.applications.create({ name: 'in B' });
    const nowhere = await admin.applications.create({ name: 'unlinked' });
    await admin.applications.link(inA.id, 'team-a', { enabled: false });
    await admin.applications.link(inB.id, 'team-b', {});

    const listed = await keyA.applications.list();
    expect(listed.applications.map((a) => a.id)).toEqual([inA.id]);
    expect(listed.total_count).toBe(1);
    expect((await admin.applications.list()).total_count).toBe(3);
    expect((await keyA.applications.get.withResponse(inA.id)).status).toBe(200);
    await expect(keyA.applications.get(inB.id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(keyA.applications.get(nowhere.id)).rejects.toBeInstanceOf(NotFoundError);
    expect((await keyA.applications.inWorkspace('team-a')).applications.map((a) => a.id)).toEqual([inA.id]);
    await expect(keyA.applications.inWorkspace('team-b')).rejects.toBeInstanceOf(ForbiddenError);

    await expect(keyA.applications.update(inA.id, { name: 'renamed' })).rejects.toBeInstanceOf(ForbiddenError);
    await expect(keyA.applications.delete(inA.id)).rejects.toBeInstanceOf(ForbiddenError);
    await expect(keyA.applications.link(inA.id, 'team-a', { enabled: true })).rejects.toBeInstanceOf(ForbiddenError);
    await expect(keyA.applications.unlink(inA.id, 'team-a')).rejects.toBeInstanceOf(ForbiddenError);
    expect((await admin.applications.get(inA.id)).name).toBe('in A');
  });
});

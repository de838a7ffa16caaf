import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, startServer, type Client, type TestServer } from '../support/server.js';

const SECRET = 'aws-secret-key-0123456789abcdef';

let server: TestServer;
let api: Client;

beforeAll(async () => {
  server = await startServer();
  api = client(server.url);
  await api.post('/v1/workspaces', { id: 'team-a', name: 'A' });
  await api.post('/v1/workspaces', { id: 'team-b', name: 'B' });
});
afterAll(() => server.stop());

async function create(body: Record<string, unknown>) {
  const res = await api.post('/v1/data-providers', body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data_provider;
}

const rawRow = (id: string) =>
  server.app.services.storage.sqlContext.db
    .selectFrom('data_providers')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirstOrThrow();

describe('data providers', () => {
  it('creates in the resolved workspace and never returns encrypted_args, which is encrypted at rest', async () => {
    const provider = await create({
      workspace_id: 'team-a',
      name: 'Shared drive',
      provider_type: 'local',
      connection_args: { path: '/srv/docs', recursive: true },
      encrypted_args: { access_key: SECRET },
      schedule: '0 3 * * *',
      metadata: { owner: 'ops' },
    });
    expect(provider).toEqual({
      id: expect.stringMatching(/^dp_[0-9a-f]{16}$/),
      workspace_id: 'team-a',
      name: 'Shared drive',
      provider_type: 'local',
      connection_args: { path: '/srv/docs', recursive: true },
      has_encrypted_args: true,
      schedule: '0 3 * * *',
      metadata: { owner: 'ops' },
      last_synced_at: null,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(
      (await api.get(`/v1/data-providers/${provider.id}`, { 'x-workspace-id': 'team-a' })).body.data_provider,
    ).toEqual(provider);

    const row = await rawRow(provider.id);
    expect(JSON.stringify(row)).not.toContain(SECRET);
    expect(row.sealed_args).toMatch(/^v1\./);
    // Only the sync seam can open them.
    expect(server.app.services.secrets.open(row.sealed_args!, `data_providers/${provider.id}`)).toEqual({
      access_key: SECRET,
    });

    const everything = JSON.stringify([
      (await api.get('/v1/data-providers?workspace_id=team-a')).body,
      (await api.post(`/v1/data-providers/${provider.id}/sync?workspace_id=team-a`)).body,
    ]);
    expect(everything).not.toContain(SECRET);
    expect(everything).not.toContain('"encrypted_args"');

    const plain = await create({ name: 'no secrets', provider_type: 'local' });
    expect(plain).toMatchObject({
      workspace_id: '_default',
      connection_args: {},
      has_encrypted_args: false,
      schedule: null,
      metadata: {},
    });
  });

  it('lists with limit, offset and total_count, per workspace', async () => {
    for (const name of ['one', 'two', 'three']) await create({ workspace_id: 'team-b', name, provider_type: 'local' });
    const page = await api.get('/v1/data-providers?workspace_id=team-b&limit=2&offset=1');
    expect(page.status).toBe(200);
    expect(page.body.total_count).toBe(3);
    expect(page.body.data_providers.map((p: { name: string }) => p.name)).toEqual(['two', 'three']);
    expect(
      (await api.get('/v1/data-providers?workspace_id=team-a')).body.data_providers.map(
        (p: { name: string }) => p.name,
      ),
    ).toEqual(['Shared drive']);
    expect((await api.get('/v1/data-providers?workspace_id=team-b&limit=0')).status).toBe(422);
    expect((await api.get('/v1/data-providers?workspace_id=nowhere')).body).toEqual({
      data_providers: [],
      total_count: 0,
    });
  });

  it('updates partially: replaces or clears encrypted_args and schedule', async () => {
    const provider = await create({
      workspace_id: 'team-a',
      name: 'editable',
      provider_type: 'local',
      encrypted_args: { token: SECRET },
      schedule: '@daily',
    });
    const renamed = await api.put(`/v1/data-providers/${provider.id}?workspace_id=team-a`, {
      name: 'renamed',
      connection_args: { path: '/x' },
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body.data_provider).toMatchObject({
      name: 'renamed',
      connection_args: { path: '/x' },
      has_encrypted_args: true,
      schedule: '@daily',
    });
    expect(
      server.app.services.secrets.open((await rawRow(provider.id)).sealed_args!, `data_providers/${provider.id}`),
    ).toEqual({ token: SECRET });

    await api.put(`/v1/data-providers/${provider.id}?workspace_id=team-a`, { encrypted_args: { token: 'rotated' } });
    expect(
      server.app.services.secrets.open((await rawRow(provider.id)).sealed_args!, `data_providers/${provider.id}`),
    ).toEqual({ token: 'rotated' });
    const cleared = await api.put(`/v1/data-providers/${provider.id}?workspace_id=team-a`, {
      encrypted_args: null,
      schedule: null,
    });
    expect(cleared.body.data_provider).toMatchObject({ has_encrypted_args: false, schedule: null, name: 'renamed' });
    expect((await rawRow(provider.id)).sealed_args).toBeNull();
  });

  it('offers only the local provider type and refuses bad input, changing nothing', async () => {
    const before = (await api.get('/v1/data-providers?workspace_id=team-a')).body.total_count;
    for (const body of [
      { name: 'x', provider_type: 's3' },
      { name: 'x' },
      { provider_type: 'local' },
      { name: '', provider_type: 'local' },
      { name: 'x', provider_type: 'local', encrypted_args: 'secret' },
      { name: 'x', provider_type: 'local', connection_args: [] },
      { name: 'x', provider_type: 'local', schedule: '' },
      { name: 'x', provider_type: 'local', interval: 5 },
    ]) {
      const res = await api.post('/v1/data-providers', { workspace_id: 'team-a', ...body });
      expect(res.status, JSON.stringify(body)).toBe(422);
    }
    expect((await api.get('/v1/data-providers?workspace_id=team-a')).body.total_count).toBe(before);

    const provider = await create({ workspace_id: 'team-a', name: 'stable', provider_type: 'local' });
    for (const body of [
      {},
      { provider_type: 'gdrive' },
      { name: '' },
      { encrypted_args: [1] },
      { workspace_id: 'team-b' },
    ]) {
      expect(
        (await api.put(`/v1/data-providers/${provider.id}?workspace_id=team-a`, body)).status,
        JSON.stringify(body),
      ).toBe(422);
    }
    expect((await api.get(`/v1/data-providers/${provider.id}?workspace_id=team-a`)).body.data_provider).toEqual(
      provider,
    );
  });

  it('syncs through the provider type’s seam: the open edition’s local provider returns an empty list', async () => {
    const provider = await create({ workspace_id: 'team-a', name: 'synced', provider_type: 'local' });
    const synced = await api.post(`/v1/data-providers/${provider.id}/sync?workspace_id=team-a`);
    expect(synced.status).toBe(200);
    expect(synced.body).toEqual({
      provider_id: provider.id,
      workspace_id: 'team-a',
      provider_type: 'local',
      documents: [],
      synced_at: expect.any(String),
      data_provider: { ...provider, last_synced_at: synced.body.synced_at },
    });
  });

  it('deletes a provider; keeps workspaces apart; unknown ids are 404', async () => {
    const provider = await create({
      workspace_id: 'team-a',
      name: 'doomed',
      provider_type: 'local',
      encrypted_args: { k: 'v' },
    });
    for (const [method, path] of [
      ['GET', ''],
      ['PUT', ''],
      ['DELETE', ''],
      ['POST', '/sync'],
    ] as const) {
      const res = await api.raw(
        method,
        `/v1/data-providers/${provider.id}${path}?workspace_id=team-b`,
        method === 'PUT' ? { name: 'x' } : method === 'POST' ? {} : undefined,
      );
      expect(res.status, `${method} ${path}`).toBe(404);
    }
    expect(
      (await api.get('/v1/data-providers?workspace_id=team-b')).body.data_providers.map((p: { id: string }) => p.id),
    ).not.toContain(provider.id);

    expect((await api.delete(`/v1/data-providers/${provider.id}?workspace_id=team-a`)).status).toBe(204);
    expect((await api.get(`/v1/data-providers/${provider.id}?workspace_id=team-a`)).status).toBe(404);
    expect((await api.delete(`/v1/data-providers/${provider.id}?workspace_id=team-a`)).status).toBe(404);
    expect((await api.post('/v1/data-providers/dp_0000000000000000/sync?workspace_id=team-a')).status).toBe(404);
  });
});

describe('data providers with auth on', () => {
  it('belong to the workspaces a key may use', async () => {
    const ADMIN = 'admin-secret-for-tests';
    const secured = await startServer({ env: { MEMD_ADMIN_KEY: ADMIN } });
    try {
      const admin = client(secured.url, { authorization: `Bearer ${ADMIN}` });
      await admin.post('/v1/workspaces', { id: 'team-a', name: 'A' });
      await admin.post('/v1/workspaces', { id: 'team-b', name: 'B' });
      const keyA = client(secured.url, {
        authorization: `Bearer ${(await admin.post('/v1/api-keys', { name: 'a', workspaces: ['team-a'] })).body.api_key.key}`,
      });
      const own = await keyA.post('/v1/data-providers', { name: 'mine', provider_type: 'local' });
      expect(own.status).toBe(201);
      expect(own.body.data_provider.workspace_id).toBe('team-a');
      expect(
        (await keyA.post('/v1/data-providers', { name: 'theirs', provider_type: 'local', workspace_id: 'team-b' }))
          .status,
      ).toBe(403);
      const theirs = (
        await admin.post('/v1/data-providers', { name: 'theirs', provider_type: 'local', workspace_id: 'team-b' })
      ).body.data_provider;
      expect((await keyA.get(`/v1/data-providers/${theirs.id}`)).status).toBe(404);
      expect((await keyA.get(`/v1/data-providers/${theirs.id}?workspace_id=team-b`)).status).toBe(403);
      expect((await keyA.get('/v1/data-providers')).body.data_providers.map((p: { name: string }) => p.name)).toEqual([
        'mine',
      ]);
    } finally {
      await secured.stop();
    }
  });
});

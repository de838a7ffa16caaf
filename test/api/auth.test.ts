import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, startServer, type TestServer } from '../support/server.js';

const ADMIN = 'admin-secret-for-tests';
let server: TestServer;

beforeAll(async () => {
  server = await startServer({ env: { MEMD_ADMIN_KEY: ADMIN } });
});
afterAll(() => server.stop());

describe('authentication with MEMD_ADMIN_KEY', () => {
  it('needs a key on every /v1 route (401), not on health', async () => {
    const anonymous = client(server.url);
    const res = await anonymous.get('/v1/workspaces');
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ statusCode: 401, code: 'unauthorized' });
    expect((await client(server.url, { authorization: 'Bearer wrong' }).get('/v1/workspaces')).status).toBe(401);
    expect((await anonymous.get('/health')).status).toBe(200);
    expect((await client(server.url, { authorization: `Bearer ${ADMIN}` }).get('/v1/workspaces')).status).toBe(200);
    expect((await client(server.url, { 'x-api-key': ADMIN }).get('/v1/workspaces')).status).toBe(200);
  });

  it('issues workspace keys that reach their workspaces only (403 elsewhere) until revoked', async () => {
    const admin = client(server.url, { authorization: `Bearer ${ADMIN}` });
    await admin.post('/v1/workspaces', { id: 'team-a', name: 'A' });
    await admin.post('/v1/workspaces', { id: 'team-b', name: 'B' });
    const secretB = (await admin.post('/v1/memories', { workspace_id: 'team-b', content: 'B secret plan' })).body
      .memory;

    const issued = await admin.post('/v1/api-keys', { name: 'agent-a', workspaces: ['team-a'] });
    expect(issued.status).toBe(201);
    expect(issued.body.api_key).toMatchObject({
      id: expect.stringMatching(/^key_/),
      key: expect.stringMatching(/^memd_/),
      name: 'agent-a',
      workspaces: ['team-a'],
    });
    const keyA = client(server.url, { authorization: `Bearer ${issued.body.api_key.key}` });

    // Naming no workspace, a single-workspace key means its own.
    const mine = await keyA.post('/v1/memories', { content: 'A note' });
    expect(mine.status).toBe(201);
    expect(mine.body.memory.workspace_id).toBe('team-a');
    expect((await keyA.post('/v1/memories', { content: 'sneaky', workspace_id: 'team-b' })).status).toBe(403);
    expect((await keyA.get(`/v1/memories/${secretB.id}?workspace_id=team-b`)).status).toBe(403);
    expect((await keyA.get(`/v1/memories/${secretB.id}`)).status).toBe(404);
    expect((await keyA.get('/v1/workspaces/team-b')).status).toBe(403);
    expect((await keyA.get('/v1/workspaces/team-b/export')).status).toBe(403);
    expect((await keyA.delete('/v1/workspaces/team-b')).status).toBe(403);
    expect((await keyA.get('/v1/memories', { 'x-workspace-id': 'team-b' })).status).toBe(403);
    expect((await keyA.get('/v1/workspaces')).body.workspaces.map((w: { id: string }) => w.id)).toEqual(['team-a']);
    // Admin-only operations.
    expect((await keyA.post('/v1/api-keys', { name: 'x', workspaces: ['team-b'] })).status).toBe(403);
    expect((await keyA.get('/v1/api-keys')).status).toBe(403);

    const listed = (await admin.get('/v1/api-keys')).body.api_keys;
    expect(listed).toHaveLength(1);
    expect(listed[0]).not.toHaveProperty('key');
    expect(listed[0]).not.toHaveProperty('key_hash');
    expect(listed[0].key_prefix).toBe(issued.body.api_key.key.slice(0, 9));

    expect((await admin.delete(`/v1/api-keys/${issued.body.api_key.id}`)).status).toBe(204);
    expect((await keyA.get('/v1/workspaces')).status).toBe(401);
    expect((await admin.delete(`/v1/api-keys/${issued.body.api_key.id}`)).status).toBe(404);
  });

  it('validates key requests', async () => {
    const admin = client(server.url, { authorization: `Bearer ${ADMIN}` });
    expect((await admin.post('/v1/api-keys', { name: 'x', workspaces: [] })).status).toBe(422);
    expect((await admin.post('/v1/api-keys', { workspaces: ['a'] })).status).toBe(422);
  });
});

describe('local development mode (no admin key)', () => {
  it('serves /v1 without any key', async () => {
    const open = await startServer();
    try {
      expect((await client(open.url).get('/v1/workspaces')).status).toBe(200);
    } finally {
      await open.stop();
    }
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, startServer, type Client, type TestServer } from '../support/server.js';

let server: TestServer;
let api: Client;

beforeAll(async () => {
  server = await startServer();
  api = client(server.url);
  await api.post('/v1/workspaces', { id: 'iso-a', name: 'A' });
  await api.post('/v1/workspaces', { id: 'iso-b', name: 'B' });
});
afterAll(() => server.stop());

describe('workspace isolation', () => {
  it('nothing of workspace A is returned or changed through workspace B', async () => {
    const a = (await api.post('/v1/memories', { workspace_id: 'iso-a', content: 'A-only fact about zebras' })).body
      .memory;
    const throughB = '?workspace_id=iso-b';
    expect((await api.get(`/v1/memories/${a.id}${throughB}`)).status).toBe(404);
    expect((await api.put(`/v1/memories/${a.id}`, { workspace_id: 'iso-b', importance: 0.1 })).status).toBe(404);
    expect((await api.delete(`/v1/memories/${a.id}${throughB}`)).status).toBe(404);
    expect((await api.delete(`/v1/memories/${a.id}${throughB}&hard=true`)).status).toBe(404);
    expect((await api.post(`/v1/memories/${a.id}/decay`, { workspace_id: 'iso-b' })).status).toBe(404);
    const batch = await api.post('/v1/memories/batch', {
      workspace_id: 'iso-b',
      operations: [
        { op: 'update', memory_id: a.id, importance: 0.01 },
        { op: 'delete', memory_id: a.id, hard: true },
      ],
    });
    expect(batch.body).toMatchObject({ successful: 0, failed: 2 });
    expect((await api.get('/v1/memories?workspace_id=iso-b')).body.total_count).toBe(0);
    const exported = (await api.get('/v1/workspaces/iso-b/export')).body as string;
    expect(exported).not.toContain('zebras');
    // The same content in B is a new memory, not A's.
    const twin = (await api.post('/v1/memories', { workspace_id: 'iso-b', content: 'A-only fact about zebras' })).body;
    expect(twin.action).toBe('created');
    expect(twin.memory.id).not.toBe(a.id);
    expect((await api.get(`/v1/memories/${a.id}?workspace_id=iso-a`)).body.memory).toMatchObject({
      importance: 0.5,
      status: 'active',
    });
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, startServer, type Client, type TestServer } from '../support/server.js';

let server: TestServer;
let api: Client;

beforeAll(async () => {
  server = await startServer({ backgroundTasks: true });
  api = client(server.url);
});
afterAll(() => server.stop());

describe('concurrency', () => {
  it('200 concurrent creates store 200 memories, none lost, no 5xx', async () => {
    const ws = (await api.post('/v1/workspaces', { name: 'concurrent' })).body.workspace.id;
    const responses = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        api.post('/v1/memories', { workspace_id: ws, content: `concurrent memory ${i} about topic ${i * 31}` }),
      ),
    );
    expect(responses.map((r) => r.status).filter((s) => s !== 201)).toEqual([]);
    const ids = new Set(responses.map((r) => r.body.memory.id));
    expect(ids.size).toBe(200);
    expect((await api.get(`/v1/memories?workspace_id=${ws}&limit=500`)).body.total_count).toBe(200);
  });
});

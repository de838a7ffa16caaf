import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock, client, startServer, type Client, type TestServer } from '../support/server.js';

let server: TestServer;
let api: Client;

beforeAll(async () => {
  server = await startServer();
  api = client(server.url);
});
afterAll(() => server.stop());

describe('health, OpenAPI and docs', () => {
  it('reports liveness and readiness', async () => {
    expect((await api.get('/health')).body).toEqual({ status: 'healthy' });
    const ready = await api.get('/health/ready');
    expect(ready.status).toBe(200);
    expect(ready.body).toMatchObject({
      status: 'ready',
      services: { storage: 'ok', search_index: 'warm', embedder: 'hash/feature-hash-v1', llm: 'none' },
    });
    expect((await api.get('/')).body).toMatchObject({ name: 'memd' });
  });

  it('shows the background backlog and how fast this server drains it', async () => {
    const tasks = async () => (await api.get('/health/ready')).body.services.tasks;
    await api.post('/v1/workspaces', { id: 'backlog', name: 'backlog' });
    const before = await tasks();
    const batch = await api.post('/v1/memories/batch', {
      workspace_id: 'backlog',
      operations: ['Ana fixed the bike.', 'Ben sold the kite.', 'Cy lost the map.'].map((content) => ({
        op: 'create',
        content,
      })),
    });
    expect(batch.status).toBeLessThan(300);
    const queued = await tasks();
    expect(queued.pending).toBeGreaterThanOrEqual(before.pending + 3);
    const ran = await server.drainTasks();
    expect(ran).toBeGreaterThanOrEqual(3);
    const after = await tasks();
    expect(after.pending).toBe(0);
    expect(after.finished_last_minute).toBe(before.finished_last_minute + ran);
  });

  it('shows the backlog by kind and how long its oldest task has waited', async () => {
    const clock = new ManualClock();
    const own = await startServer({ clock });
    try {
      const ownApi = client(own.url);
      const tasks = async () => (await ownApi.get('/health/ready')).body.services.tasks;
      await own.drainTasks();
      expect((await tasks()).backlog['memory.enrich']).toBeUndefined();
      await ownApi.post('/v1/memories', { content: 'Ana fixed the bike.' });
      clock.advance(30_000);
      await ownApi.post('/v1/memories', { content: 'Ben sold the kite.' });
      clock.advance(60_000);
      const queued = await tasks();
      expect(queued.backlog['memory.enrich']).toEqual({ pending: 2, oldest_pending_seconds: 90 });
      expect(queued.oldest_pending_seconds).toBeGreaterThanOrEqual(90);
      await own.drainTasks();
      const drained = await tasks();
      expect(drained.backlog).toEqual({});
      expect(drained.oldest_pending_seconds).toBe(0);
    } finally {
      await own.stop();
    }
  });

  it('runs no background task with a task concurrency of 0, and keeps them queued, visible and drainable', async () => {
    const own = await startServer({
      env: { MEMD_TASK_CONCURRENCY: '0', MEMD_TASK_POLL_MS: '10', MEMD_TASK_FOREGROUND_WAIT_MS: '0' },
      backgroundTasks: true,
    });
    try {
      const ownApi = client(own.url);
      const tasks = async () => (await ownApi.get('/health/ready')).body.services.tasks;
      await ownApi.post('/v1/memories', { content: 'Ana fixed the bike.' });
      // Polling every 10 ms, a node that ran tasks would have enriched it long before this second is over.
      await sleep(1_000);
      const queued = await tasks();
      expect(queued.backlog['memory.enrich']).toMatchObject({ pending: 1 });
      expect(queued.finished_last_minute).toBe(0);
      expect(await own.drainTasks()).toBeGreaterThanOrEqual(1);
      expect((await tasks()).backlog).toEqual({});
    } finally {
      await own.stop();
    }
  });

  it('publishes an OpenAPI document generated from the route schemas, and the docs page', async () => {
    const doc = (await api.get('/openapi.json')).body;
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/v1/memories',
        '/v1/memories/{memory_id}',
        '/v1/memories/batch',
        '/v1/workspaces/{workspace_id}/export',
        '/v1/workspaces/{workspace_id}/contexts',
        '/v1/api-keys',
      ]),
    );
    const create = doc.paths['/v1/memories'].post;
    expect(create.requestBody.content['application/json'].schema.properties.importance).toMatchObject({
      minimum: 0,
      maximum: 1,
    });
    expect(Object.keys(doc.paths).every((p: string) => p.startsWith('/v1/') || p.startsWith('/health'))).toBe(true);
    const docs = await api.get('/docs/');
    expect(docs.status).toBe(200);
    expect(String(docs.body)).toContain('swagger');
  });

  it('answers unknown routes with the JSON error body', async () => {
    const res = await api.get('/v1/nowhere');
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ statusCode: 404, error: 'Not Found', code: 'not_found' });
  });

  it('answers a method a route does not take with 405 and the methods it takes, and changes nothing', async () => {
    const created = await api.post('/v1/memories', { content: 'The office wifi password is tulip-42.' });
    const id = created.body.memory.id;
    const res = await api.raw('PATCH', `/v1/memories/${id}`, { content: 'The office wifi password is orchid-77.' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, HEAD, PUT, DELETE');
    expect(res.body).toMatchObject({ statusCode: 405, error: 'Method Not Allowed', code: 'method_not_allowed' });
    expect(res.body.message).toContain('PUT');
    expect((await api.get(`/v1/memories/${id}`)).body.memory.content).toBe('The office wifi password is tulip-42.');
    expect((await api.raw('PUT', '/v1/nowhere', {})).status).toBe(404);
  });
});

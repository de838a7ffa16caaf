import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshSchema } from '../support/postgres.js';
import { client, postgresStorageEnv, startServer, type Client, type TestServer } from '../support/server.js';

/**
 * An API-only node (`MEMD_TASK_CONCURRENCY=0`) beside a worker node on one PostgreSQL database: the API node serves
 * writes and recalls and runs no background task; the worker runs every task the API node queued.
 */
describe('an API-only node beside a worker node', () => {
  let apiNode: TestServer;
  let workerNode: TestServer;
  let api: Client;
  let worker: Client;

  beforeAll(async () => {
    const env = { ...postgresStorageEnv(freshSchema()), MEMD_TASK_POLL_MS: '50', MEMD_TASK_FOREGROUND_WAIT_MS: '0' };
    apiNode = await startServer({ env: { ...env, MEMD_TASK_CONCURRENCY: '0' }, backgroundTasks: true });
    workerNode = await startServer({ env, backgroundTasks: true });
    api = client(apiNode.url);
    worker = client(workerNode.url);
  });
  afterAll(async () => {
    await apiNode?.stop();
    await workerNode?.stop();
  });

  const tasksOf = async (node: Client) => (await node.get('/health/ready')).body.services.tasks;

  it('leaves every task it queues to the worker, which runs them all', async () => {
    const contents = Array.from({ length: 20 }, (_, n) => `Delivery ${n} reached warehouse ${n % 7} on a rainy day.`);
    const batch = await api.post('/v1/memories/batch', {
      workspace_id: 'split',
      operations: contents.map((content) => ({ op: 'create', content })),
    });
    expect(batch.status, JSON.stringify(batch.body)).toBeLessThan(300);

    // Both nodes read one queue: it empties only as the worker runs what the API node queued.
    let queued = await tasksOf(api);
    for (let waited = 0; queued.pending + queued.running > 0 && waited < 30_000; waited += 100) {
      await sleep(100);
      queued = await tasksOf(api);
    }
    expect(queued).toMatchObject({ pending: 0, running: 0, failed: 0 });
    expect((await tasksOf(api)).finished_last_minute).toBe(0);
    expect((await tasksOf(worker)).finished_last_minute).toBeGreaterThanOrEqual(contents.length);

    // The API node serves what the worker enriched.
    const recalled = await api.post('/v1/memories/recall', { workspace_id: 'split', query: 'warehouse 3 delivery' });
    expect(recalled.status).toBe(200);
    expect(recalled.body.memories.map((m: { content: string }) => m.content)).toContain(contents[3]);
  });
});

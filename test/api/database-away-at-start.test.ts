import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, type MemdApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { freshSchema } from '../support/postgres.js';
import { postgresBinDir, startPostgresCluster, type PostgresCluster } from '../support/postgres-cluster.js';
import { client, postgresStorageEnv } from '../support/server.js';

/**
 * A node's background start (warming, seeding the recurring tasks) meets a database that went away after the node
 * connected: it must become ready once the database is back, not stay "warming" for good (a CI run of 2026-12-06 saw
 * a node answer `search_index: warming` for 30 s after PostgreSQL had come back).
 */
describe.skipIf(!postgresBinDir() && process.env.MEMD_TEST_DATABASE_URL)('a database away while a node starts', () => {
  let cluster: PostgresCluster;
  let app: MemdApp;
  const dataDir = mkdtempSync(join(tmpdir(), 'memd-away-'));

  beforeAll(async () => {
    cluster = await startPostgresCluster();
    app = await createApp(
      loadConfig({
        ...postgresStorageEnv(freshSchema()),
        MEMD_DATABASE_URL: cluster.url,
        MEMD_DATA_DIR: dataDir,
        MEMD_EMBEDDING_PROVIDER: 'hash',
        MEMD_LOG_LEVEL: 'silent',
        MEMD_SANDBOX_SPARE: 'off',
      }),
    );
  });
  afterAll(async () => {
    await app?.close();
    await cluster?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('becomes ready by itself once the database is back', async () => {
    await cluster.halt();
    const api = client(await app.listen(0));
    await sleep(1_000);
    const down = await api.get('/health/ready');
    expect(down.status).toBe(503);
    expect(down.body.services.storage).toBe('unreachable');

    await cluster.start();
    let ready = await api.get('/health/ready');
    for (let i = 0; i < 300 && ready.status !== 200; i++) {
      await sleep(100);
      ready = await api.get('/health/ready');
    }
    expect(ready.status, JSON.stringify(ready.body)).toBe(200);
    expect(ready.body.services.search_index).toBe('warm');
    expect((await api.post('/v1/memories', { content: 'Written once the database came back.' })).status).toBe(201);
  }, 60_000);
});

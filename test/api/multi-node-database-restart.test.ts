import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allMemories, factsPerMemory } from '../support/facts.js';
import { startNodes, type NodeGroup, type NodeProcess } from '../support/nodes.js';
import { freshSchema } from '../support/postgres.js';
import { postgresBinDir, startPostgresCluster, type PostgresCluster } from '../support/postgres-cluster.js';
import { postgresStorageEnv, type Client } from '../support/server.js';

/** Two sentences over 80 characters: each memory queues enrichment that derives exactly two facts. */
const content = (n: number) =>
  `Restart test memory number ${n} records a call to office ${n % 13}. The call lasted ${n} seconds and was logged.`;

/**
 * The database goes away under two running nodes and comes back. This file stops and starts a PostgreSQL server of
 * its own (the run's shared one serves other files meanwhile).
 */
// With MEMD_TEST_DATABASE_URL and no server binaries here, there is no server this file may stop: it is skipped.
describe.skipIf(!postgresBinDir() && process.env.MEMD_TEST_DATABASE_URL)(
  'two nodes while their database restarts',
  () => {
    let cluster: PostgresCluster;
    let group: NodeGroup;

    beforeAll(async () => {
      cluster = await startPostgresCluster();
      group = await startNodes(['a', 'b'], {
        ...postgresStorageEnv(freshSchema()),
        MEMD_DATABASE_URL: cluster.url,
        // Tasks a node was running when the database went away return to the queue soon after.
        MEMD_TASK_LEASE_MS: '2000',
        MEMD_TASK_POLL_MS: '100',
      });
    });
    afterAll(async () => {
      await group?.stop();
      await cluster?.stop();
    });

    it('answer 503 with a JSON body while it is down, lose no acknowledged write, and recover by themselves', async () => {
      const [a, b] = group.nodes as [NodeProcess, NodeProcess];
      const acknowledged: string[] = [];
      const statuses = new Map<number, number>();
      let n = 0;
      let writing = true;
      // A writer per node keeps requests in flight through the outage.
      const writer = async (api: Client) => {
        while (writing) {
          const res = await api.post('/v1/memories', { content: content(n++) });
          statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
          if (res.status === 201) acknowledged.push(res.body.memory.id);
          else await sleep(50);
        }
      };
      const writers = [writer(a.api), writer(b.api)];
      while (acknowledged.length < 20) await sleep(20);
      const before = acknowledged[0]!;

      await cluster.halt();
      for (const node of [a, b]) {
        for (const res of [
          await node.api.get(`/v1/memories/${before}`),
          await node.api.post('/v1/memories', { content: 'Written while the database is down.' }),
          await node.api.post('/v1/memories/recall', { query: `office hours asked on node ${node.name}` }),
          await node.api.get('/v1/sessions'),
        ]) {
          expect(res.status, JSON.stringify(res.body)).toBe(503);
          expect(res.headers.get('content-type')).toMatch(/application\/json/);
          expect(res.body).toMatchObject({ statusCode: 503, code: 'storage_unavailable' });
        }
        const ready = await node.api.get('/health/ready');
        expect(ready.status).toBe(503);
        expect(ready.body.services.storage).toBe('unreachable');
        expect((await node.api.get('/health')).status).toBe(200);
      }
      const acknowledgedWhileDown = acknowledged.length;

      await cluster.start();
      // Both nodes serve again on their own: no restart, the same processes.
      for (const node of [a, b]) {
        let res = await node.api.get(`/v1/memories/${before}`);
        for (let i = 0; i < 200 && res.status !== 200; i++) {
          await sleep(100);
          res = await node.api.get(`/v1/memories/${before}`);
        }
        expect(res.status).toBe(200);
        // Recovery may take a few requests, not one: in CI runs (2026-11-27, and twice in December under a loaded
        // machine) the readiness probe still answered 503 five seconds after the node had served a read. Each request
        // is served or answered 503, never lost (below). Up to 30 s, and the answer says which service was not ready.
        let ready = await node.api.get('/health/ready');
        for (let i = 0; i < 300 && ready.status !== 200; i++) {
          await sleep(100);
          ready = await node.api.get('/health/ready');
        }
        expect(ready.status, JSON.stringify(ready.body)).toBe(200);
      }
      while (acknowledged.length < acknowledgedWhileDown + 20) await sleep(20);
      writing = false;
      await Promise.all(writers);
      expect(a.child.exitCode).toBeNull();
      expect(b.child.exitCode).toBeNull();

      // Nothing but successes and 503s reached the writers.
      expect([...statuses.keys()].sort()).toEqual([201, 503]);
      for (const id of acknowledged) {
        expect((await a.api.get(`/v1/memories/${id}`)).status, id).toBe(200);
        expect((await b.api.get(`/v1/memories/${id}`)).status, id).toBe(200);
      }
      // The background work caught up too: every acknowledged memory has its two facts, and no task failed. Up to three
      // minutes, for a machine under load. A task left `running` here for good was once a completion the runner could
      // not record during the outage and then forgot while renewing its lease (test/tasks/runner-connection-loss.test.ts).
      let counts: { pending: number; running: number; failed: number } = (await a.api.get('/health/ready')).body
        .services.tasks;
      for (let i = 0; i < 900 && counts.pending + counts.running > 0; i++) {
        await sleep(200);
        counts = (await a.api.get('/health/ready')).body.services.tasks;
      }
      expect(counts).toMatchObject({ pending: 0, running: 0, failed: 0 });
      const facts = factsPerMemory(await allMemories(b.api));
      for (const id of acknowledged) expect(facts.get(id), id).toBe(2);
    }, 420_000);
  },
);

import { randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { startNodes, type NodeGroup } from '../support/nodes.js';
import { postgresStorageEnv } from '../support/server.js';
import { testDatabaseUrl } from '../support/test-database.js';

/** Every migration the code has, by name (the files under src/storage/migrations numbered NNNN_). */
const MIGRATIONS = readdirSync(new URL('../../src/storage/migrations/', import.meta.url))
  .filter((file) => /^\d{4}_.*\.ts$/.test(file))
  .map((file) => file.replace(/\.ts$/, ''))
  .sort();

async function query<T extends pg.QueryResultRow>(url: string, sql: string): Promise<T[]> {
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  try {
    return (await db.query<T>(sql)).rows;
  } finally {
    await db.end();
  }
}

describe('three nodes started at once on an empty database', () => {
  const database = `memd_start_${randomBytes(4).toString('hex')}`;
  const url = new URL(testDatabaseUrl());
  url.pathname = `/${database}`;
  let group: NodeGroup | undefined;

  afterAll(async () => {
    await group?.stop();
    await query(testDatabaseUrl(), `DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
  });

  it('apply each migration once, in the schema they were given and in the default one, and all serve', async () => {
    await query(testDatabaseUrl(), `CREATE DATABASE ${database}`);
    // Two groups at once: three nodes on the default schema (the extension is created too), three on a named one
    // that does not exist yet.
    const common = { ...postgresStorageEnv(''), MEMD_DATABASE_URL: url.href };
    const starts = [
      startNodes(['a', 'b', 'c'], { ...common, MEMD_DATABASE_SCHEMA: '' }),
      startNodes(['d', 'e', 'f'], { ...common, MEMD_DATABASE_SCHEMA: 'memd' }),
    ];
    const groups = await Promise.allSettled(starts);
    const nodes = groups.flatMap((g) => (g.status === 'fulfilled' ? g.value.nodes : []));
    group = {
      nodes,
      stop: async () =>
        void (await Promise.all(groups.map((g) => (g.status === 'fulfilled' ? g.value.stop() : undefined)))),
    };
    for (const g of groups) if (g.status === 'rejected') throw g.reason;

    for (const schema of ['public', 'memd']) {
      const applied = await query<{ name: string }>(
        url.href,
        `SELECT name FROM ${schema}.kysely_migration ORDER BY name`,
      );
      expect(applied.map((row) => row.name)).toEqual(MIGRATIONS);
    }
    expect(await query(url.href, "SELECT extname FROM pg_extension WHERE extname = 'vector'")).toHaveLength(1);

    // Each group is one service: what one node writes, the others of its group read; the groups stay apart.
    const [a, b, c, d, e] = nodes;
    const created = await a!.api.post('/v1/memories', { content: 'The boiler is serviced every October.' });
    expect(created.status).toBe(201);
    for (const node of [b!, c!])
      expect((await node.api.get(`/v1/memories/${created.body.memory.id}`)).status).toBe(200);
    for (const node of [d!, e!])
      expect((await node.api.get(`/v1/memories/${created.body.memory.id}`)).status).toBe(404);
  }, 180_000);
});

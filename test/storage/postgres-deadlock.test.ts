import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { openPostgresStorage } from '../../src/storage/postgres/open.js';
import type { SqlStorage } from '../../src/storage/sql/storage.js';
import { freshSchema } from '../support/postgres.js';
import { testDatabaseUrl } from '../support/test-database.js';

describe('a deadlock on PostgreSQL', () => {
  let storage: SqlStorage | undefined;
  afterAll(() => storage?.close());

  it('rolls one transaction back as a conflict (409) to send again, and lets the other commit', async () => {
    storage = await openPostgresStorage({ url: testDatabaseUrl(), poolSize: 2, dimensions: 8, schema: freshSchema() });
    const { db } = storage.sqlContext;
    await sql`CREATE TABLE crossed (id int PRIMARY KEY)`.execute(db);
    await sql`INSERT INTO crossed VALUES (1), (2)`.execute(db);
    let arrived = 0;
    let bothHold!: () => void;
    const holding = new Promise<void>((resolve) => {
      bothHold = resolve;
    });
    // Each holds one row, then asks for the other's.
    const crossing = (first: number, second: number) =>
      db.transaction().execute(async (tx) => {
        await sql`SELECT id FROM crossed WHERE id = ${first} FOR UPDATE`.execute(tx);
        if (++arrived === 2) bothHold();
        await holding;
        await sql`SELECT id FROM crossed WHERE id = ${second} FOR UPDATE`.execute(tx);
      });
    const outcomes = await Promise.allSettled([crossing(1, 2), crossing(2, 1)]);
    expect(outcomes.map((o) => o.status).sort()).toEqual(['fulfilled', 'rejected']);
    const refused = outcomes.find((o) => o.status === 'rejected') as PromiseRejectedResult;
    expect(refused.reason).toMatchObject({ code: 'conflict', statusCode: 409 });
    expect(refused.reason.cause).toMatchObject({ code: '40P01' });
  });
});

import Database from 'better-sqlite3';
import { Kysely, sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ImmediateSqliteDialect } from '../../src/storage/sqlite/immediate-dialect.js';
import { limitExpression } from '../../src/storage/sqlite/limit-expression.js';

interface Schema {
  items: { n: number };
}

describe('SQLite LIMITs written as expressions', () => {
  let db: Kysely<Schema>;

  beforeEach(async () => {
    db = new Kysely<Schema>({ dialect: new ImmediateSqliteDialect({ database: new Database(':memory:') }) });
    await db.schema.createTable('items').addColumn('n', 'integer').execute();
    await db
      .insertInto('items')
      .values(Array.from({ length: 10 }, (_, i) => ({ n: i + 1 })))
      .execute();
  });

  afterEach(() => db.destroy());

  const page = (limit: number, offset?: number) => {
    const query = db.selectFrom('items').select('n').orderBy('n').limit(limit);
    return offset === undefined ? query : query.offset(offset);
  };

  it("compiles the builder's limit as its value plus nothing, and the offset as it was", () => {
    expect(page(3, 2).compile().sql).toBe('select "n" from "items" order by "n" limit ? + 0 offset ?');
  });

  it('returns the rows a bare limit returns, with and without an offset, none at 0', async () => {
    expect((await page(3).execute()).map((r) => r.n)).toEqual([1, 2, 3]);
    expect((await page(3, 8).execute()).map((r) => r.n)).toEqual([9, 10]);
    expect(await page(0).execute()).toEqual([]);
    // The largest limit a caller passes ("everything") still limits nothing away.
    expect((await page(Number.MAX_SAFE_INTEGER, 7).execute()).map((r) => r.n)).toEqual([8, 9, 10]);
  });

  it('limits a raw statement through limitExpression, inside a subquery too', async () => {
    const counted = await sql<{
      c: number;
    }>`SELECT count(*) AS c FROM (SELECT n FROM items LIMIT ${limitExpression(4)})`.execute(db);
    expect(counted.rows).toEqual([{ c: 4 }]);
  });
});

import { afterAll, describe, expect, it } from 'vitest';
import { openPostgresStorage } from '../../src/storage/postgres/open.js';
import type { SqlStorage } from '../../src/storage/sql/storage.js';
import { freshSchema } from '../support/postgres.js';
import { testDatabaseUrl } from '../support/test-database.js';

describe('introspection on a PostgreSQL server shared by several memd schemas', () => {
  const opened: SqlStorage[] = [];
  const open = async (schema: string) => {
    const storage = await openPostgresStorage({ url: testDatabaseUrl(), poolSize: 2, dimensions: 8, schema });
    opened.push(storage);
    return storage;
  };
  afterAll(() => Promise.all(opened.map((storage) => storage.close())));

  it("lists the tables of memd's own schema only, Kysely's bookkeeping when asked, with their columns", async () => {
    const [mine, other] = [freshSchema(), freshSchema()];
    const storage = await open(mine);
    await open(other);
    const { introspection } = storage.sqlContext.db;

    expect((await introspection.getSchemas()).map((schema) => schema.name)).toEqual([mine]);
    const tables = await introspection.getTables();
    const names = tables.map((table) => table.name);
    expect(names).toContain('memories');
    expect(names).not.toContain('kysely_migration');
    expect(new Set(tables.map((table) => table.schema))).toEqual(new Set([mine]));
    const withBookkeeping = await introspection.getTables({ withInternalKyselyTables: true });
    expect(withBookkeeping.map((table) => table.name)).toEqual(expect.arrayContaining(['kysely_migration', ...names]));

    const tasks = tables.find((table) => table.name === 'tasks')!;
    expect(tasks.columns.find((column) => column.name === 'id')).toMatchObject({
      dataType: 'int8',
      isAutoIncrementing: true,
      isNullable: false,
    });
    expect(tasks.columns.find((column) => column.name === 'kind')).toMatchObject({
      dataType: 'text',
      isAutoIncrementing: false,
      isNullable: false,
      hasDefaultValue: false,
    });
  });
});

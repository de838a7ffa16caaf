import Database from 'better-sqlite3';
import { Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { missingReference } from '../../src/storage/sql/missing-reference.js';
import { ImmediateSqliteDialect } from '../../src/storage/sqlite/immediate-dialect.js';

describe('missingReference', () => {
  it("names the row from PostgreSQL's detail of a one-column key", () => {
    const error = Object.assign(new Error('insert or update on table "memories" violates foreign key constraint'), {
      code: '23503',
      detail: 'Key (workspace_id)=(team-a) is not present in table "workspaces".',
    });
    const translated = missingReference(error);
    expect(translated).toMatchObject({ code: 'not_found', statusCode: 404, cause: error });
    expect(translated!.message).toBe(
      "workspace 'team-a' no longer exists (deleted while this call ran); nothing was changed",
    );
  });

  it("translates SQLite's own foreign key error, which names nothing", () => {
    const db = new Database(':memory:');
    db.pragma('foreign_keys = ON');
    db.exec('CREATE TABLE parent (id TEXT PRIMARY KEY); CREATE TABLE child (parent_id TEXT REFERENCES parent(id))');
    let thrown: unknown;
    try {
      db.prepare("INSERT INTO child VALUES ('gone')").run();
    } catch (error) {
      thrown = error;
    }
    expect(missingReference(thrown)?.message).toBe(
      'a record this call refers to no longer exists (deleted while this call ran); nothing was changed',
    );
  });

  it('leaves every other error alone', () => {
    expect(missingReference(Object.assign(new Error('duplicate key'), { code: '23505' }))).toBeNull();
    expect(missingReference(new Error('boom'))).toBeNull();
    expect(missingReference(undefined)).toBeNull();
  });
});

describe('the SQLite dialect', () => {
  it('answers a statement naming a row that is not there as not_found, and the transaction rolls back', async () => {
    const database = new Database(':memory:');
    database.pragma('foreign_keys = ON');
    database.exec(
      'CREATE TABLE parent (id TEXT PRIMARY KEY); CREATE TABLE child (parent_id TEXT REFERENCES parent(id))',
    );
    const db = new Kysely<{ parent: { id: string }; child: { parent_id: string } }>({
      dialect: new ImmediateSqliteDialect({ database }),
    });
    const written = db.transaction().execute(async (tx) => {
      await tx.insertInto('parent').values({ id: 'kept' }).execute();
      await tx.insertInto('child').values({ parent_id: 'gone' }).execute();
    });
    await expect(written).rejects.toMatchObject({ code: 'not_found', statusCode: 404 });
    expect(await db.selectFrom('parent').selectAll().execute()).toEqual([]);
    await db.destroy();
  });
});

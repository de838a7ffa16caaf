import Database from 'better-sqlite3';
import { Kysely, Migrator, SqliteDialect } from 'kysely';
import * as sqliteVec from 'sqlite-vec';
import { describe, expect, it } from 'vitest';
import * as foundation from '../../src/storage/migrations/0001_foundation.js';
import * as sessions from '../../src/storage/migrations/0002_sessions.js';
import * as conversation from '../../src/storage/migrations/0004_conversation.js';
import { migrateToLatest } from '../../src/storage/migrations/index.js';

describe('migrations merged out of order', () => {
  it('a database that ran 0004 before 0003 existed still upgrades, and gains the knowledgebase tables', async () => {
    const raw = new Database(':memory:');
    sqliteVec.load(raw);
    const db = new Kysely<any>({ dialect: new SqliteDialect({ database: raw }) });
    const at = (m: { up(db: Kysely<any>, dialect: 'sqlite'): Promise<void> }) => ({
      up: (k: Kysely<any>) => m.up(k, 'sqlite'),
    });
    const before = {
      '0001_foundation': at(foundation),
      '0002_sessions': at(sessions),
      '0004_conversation': at(conversation),
    };
    expect(
      (await new Migrator({ db, provider: { getMigrations: async () => before } }).migrateToLatest()).error,
    ).toBeUndefined();
    await migrateToLatest(db, 'sqlite');
    const tables = (await db.selectFrom('sqlite_master').select('name').where('type', '=', 'table').execute()).map(
      (r) => r.name,
    );
    expect(tables).toEqual(expect.arrayContaining(['kb_articles', 'knowledgebases', 'kb_jobs', 'chat_threads']));
    await db.destroy();
  });
});

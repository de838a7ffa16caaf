import Database from 'better-sqlite3';
import { Kysely, Migrator, SqliteDialect } from 'kysely';
import * as sqliteVec from 'sqlite-vec';
import { describe, expect, it } from 'vitest';
import { MIGRATIONS, migrateToLatest } from '../../src/storage/migrations/index.js';

describe('migration 0018 (document passages)', () => {
  it('a page stored with one vector keeps it as its one passage, so page search still finds it', async () => {
    const raw = new Database(':memory:');
    sqliteVec.load(raw);
    const db = new Kysely<any>({ dialect: new SqliteDialect({ database: raw }) });
    const before = Object.fromEntries(
      Object.entries(MIGRATIONS)
        .filter(([name]) => name < '0018')
        .map(([name, m]) => [name, { up: (k: Kysely<any>) => m.up(k, 'sqlite') }]),
    );
    expect(
      (await new Migrator({ db, provider: { getMigrations: async () => before } }).migrateToLatest()).error,
    ).toBeUndefined();

    const now = '2026-01-01T00:00:00.000Z';
    raw.exec(`PRAGMA foreign_keys = OFF`);
    const vector = Buffer.from(new Float32Array([0.6, 0.8]).buffer);
    const insertPage = raw.prepare(
      `INSERT INTO document_pages (id, workspace_id, document_id, page_no, transcript, transcript_model, embedding, created_at) VALUES (?, 'ws', 'doc', ?, ?, 'unpdf', ?, ?)`,
    );
    insertPage.run('page_1', 1, 'A page of text stored before passages.', vector, now);
    insertPage.run('page_2', 2, '', vector, now);
    raw.exec(`PRAGMA foreign_keys = ON`);

    await migrateToLatest(db, 'sqlite');
    const passages = raw
      .prepare(`SELECT page_id, passage_no, workspace_id, document_id, text, embedding FROM document_passages`)
      .all() as any[];
    // The page without text has nothing to be found by.
    expect(passages.map(({ embedding, ...rest }) => rest)).toEqual([
      {
        page_id: 'page_1',
        passage_no: 0,
        workspace_id: 'ws',
        document_id: 'doc',
        text: 'A page of text stored before passages.',
      },
    ]);
    expect(Buffer.compare(passages[0].embedding, vector)).toBe(0);
    const columns = (raw.prepare(`PRAGMA table_info(document_pages)`).all() as Array<{ name: string }>).map(
      (c) => c.name,
    );
    expect(columns).toContain('transcript_confidence');
    expect(columns).not.toContain('embedding');
    await db.destroy();
  });
});

import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { migrateToLatest } from '../../src/storage/migrations/index.js';
import type { SqlStorage } from '../../src/storage/sql/storage.js';
import { keywordPhrase } from '../../src/text/keyword-text.js';
import { axisVector, memory, workspace } from '../support/records.js';
import { type StorageBackend, storageBackends } from '../support/storage-backends.js';

const COFFEE = '我喜欢喝咖啡，每天早上一杯。';
const DOCTOR = "J'ai rendez-vous chez le médecin jeudi.";
const TEA = 'Anna drinks green tea.';

describe.each(storageBackends())('migration 0025 (the keyword index reads keyword_text): $name', (backend) => {
  afterAll(() => backend.teardown());

  it('reads the memories written before it as memories written after it are read', async () => {
    const { storage, db, postgres, found } = await storeHolding(backend, [COFFEE, DOCTOR, TEA]);
    try {
      expect(await found('咖啡')).toEqual([COFFEE]);
      expect(await found('medecin')).toEqual([DOCTOR]);

      // The database as the build before wrote it: no keyword_text, the index reading the content as written.
      if (postgres) {
        await sql`ALTER TABLE memories DROP COLUMN search_tsv`.execute(db);
        await sql`ALTER TABLE memories DROP COLUMN keyword_text`.execute(db);
        await sql`ALTER TABLE memories ADD COLUMN search_tsv tsvector GENERATED ALWAYS AS (to_tsvector('english', content)) STORED`.execute(
          db,
        );
        await sql`CREATE INDEX memories_search_tsv ON memories USING gin (search_tsv) WITH (fastupdate = off)`.execute(
          db,
        );
      } else {
        await sql`ALTER TABLE memories DROP COLUMN keyword_text`.execute(db);
        await sql`DELETE FROM memory_fts`.execute(db);
        await sql`INSERT INTO memory_fts (rowid, content) SELECT seq, content FROM memories`.execute(db);
      }
      await sql`DELETE FROM kysely_migration WHERE name = '0025_keyword_text'`.execute(db);
      // SQLite's index folded diacritics itself; PostgreSQL's did not.
      expect(await found('咖啡')).toEqual([]);
      expect(await found('medecin')).toEqual(postgres ? [] : [DOCTOR]);

      await migrateToLatest(db, postgres ? 'postgres' : 'sqlite', postgres ? await currentSchema(db) : undefined);
      expect(await found('咖啡')).toEqual([COFFEE]);
      expect(await found('medecin')).toEqual([DOCTOR]);
      expect(await found('tea')).toEqual([TEA]);
      const { rows } = await sql<{ content: string; keyword_text: string | null }>`
        SELECT content, keyword_text FROM memories ORDER BY seq`.execute(db);
      expect(rows.map((row) => row.keyword_text)).toEqual([
        ' 我喜 喜欢 欢喝 喝咖 咖啡 我 喜 欢 喝 咖 啡   每天 天早 早上 上一 一杯 每 天 早 上 一 杯  ',
        "J'ai rendez-vous chez le medecin jeudi. rendezvous",
        null,
      ]);
    } finally {
      await storage.close();
    }
  });
});

const RICE = 'ฉันชอบกินข้าวผัดกับเพื่อนที่กรุงเทพ';

describe.each(storageBackends())('migration 0026 (Thai, Lao, Khmer and Burmese in pairs): $name', (backend) => {
  afterAll(() => backend.teardown());

  it('reads the memories of those scripts written before it in pairs, and leaves the others', async () => {
    const { storage, db, postgres, found } = await storeHolding(backend, [RICE, COFFEE, DOCTOR]);
    try {
      const rice = keywordPhrase('ข้าวผัด');
      expect(await found(rice)).toEqual([RICE]);
      const before = await keywordTexts(db);

      // As the build before read it: the Thai run as written, one word.
      await sql`UPDATE memories SET keyword_text = NULL WHERE content = ${RICE}`.execute(db);
      if (!postgres)
        await sql`UPDATE memory_fts SET content = ${RICE} WHERE rowid = (SELECT seq FROM memories WHERE content = ${RICE})`.execute(
          db,
        );
      await sql`DELETE FROM kysely_migration WHERE name = '0026_keyword_text_southeast_asian'`.execute(db);
      expect(await found(rice)).toEqual([]);

      await migrateToLatest(db, postgres ? 'postgres' : 'sqlite', postgres ? await currentSchema(db) : undefined);
      expect(await found(rice)).toEqual([RICE]);
      expect(await found('咖啡')).toEqual([COFFEE]);
      expect(await found('medecin')).toEqual([DOCTOR]);
      expect(await keywordTexts(db)).toEqual(before);
      expect(before[0]).toContain(' ข้ ้า าว ');
    } finally {
      await storage.close();
    }
  });
});

const SERVICE = 'getUserById in src/services/userService.ts returns null for a soft-deleted account.';
const CACHE = 'The payments worker reads REDIS_URL, set to redis://cache:6379.';
const TICKET = 'Ticket ABC-123 was closed on 2024-03-15 after an edit of /etc/hosts.';

describe.each(storageBackends())('migration 0027 (joined words apart, camel case in parts): $name', (backend) => {
  afterAll(() => backend.teardown());

  it('reads the memories with such words written before it as memories written after it are read', async () => {
    const { storage, db, postgres, found } = await storeHolding(backend, [SERVICE, CACHE, TEA, TICKET]);
    try {
      expect(await found('userservice')).toEqual([SERVICE]);
      expect(await found('user service')).toEqual([SERVICE]);
      const before = await keywordTexts(db);
      expect(before).toEqual([
        'getUserById get User By Id in src services userService user Service ts returns null for a soft-deleted account. softdeleted',
        'The payments worker reads REDIS_URL, set to redis cache 6379.',
        null,
        'Ticket ABC 123 was closed on 2024 03 15 after an edit of  etc hosts.',
      ]);

      // As the build before read them: ASCII text as written.
      await asWrittenBefore(db, postgres, '0027_keyword_text_code');
      // PostgreSQL's parser read a path as one word, and "-123" as a negative number; neither engine split the camel
      // case.
      expect(await found('userservice')).toEqual(postgres ? [] : [SERVICE]);
      expect(await found('abc 123')).toEqual(postgres ? [] : [TICKET]);
      expect(await found('etc hosts')).toEqual(postgres ? [] : [TICKET]);
      expect(await found('user service')).toEqual([]);

      await migrateToLatest(db, postgres ? 'postgres' : 'sqlite', postgres ? await currentSchema(db) : undefined);
      expect(await found('userservice')).toEqual([SERVICE]);
      expect(await found('user service')).toEqual([SERVICE]);
      expect(await found('cache')).toEqual([CACHE]);
      expect(await found('abc 123')).toEqual([TICKET]);
      expect(await found('etc hosts')).toEqual([TICKET]);
      expect(await found('tea')).toEqual([TEA]);
      expect(await keywordTexts(db)).toEqual(before);
    } finally {
      await storage.close();
    }
  });
});

const TRIP = 'Maya’s trip went everywhere—even to “Porto”.';

describe.each(storageBackends())('migration 0028 (separators beyond ASCII as spaces): $name', (backend) => {
  afterAll(() => backend.teardown());

  it('reads dashes, quotation marks and apostrophes beyond ASCII as ASCII separators, as SQLite did', async () => {
    const { storage, db, postgres, found } = await storeHolding(backend, [TRIP, TEA]);
    try {
      const words = ['maya', 'everywhere', 'even', 'porto'];
      for (const word of words) expect(await found(word)).toEqual([TRIP]);
      const before = await keywordTexts(db);
      expect(before).toEqual(["Maya's trip went everywhere even to  Porto .", null]);

      // As the build before read it: the text as written.
      await asWrittenBefore(db, postgres, '0028_keyword_text_separators');
      // PostgreSQL under LC_CTYPE C read "Maya’s", "everywhere—even" and “Porto” as words of their own.
      const ctype = postgres
        ? (await sql<{ lc: string }>`SELECT current_setting('lc_ctype') AS lc`.execute(db)).rows[0]!.lc
        : '';
      for (const word of words) expect(await found(word)).toEqual(ctype === 'C' ? [] : [TRIP]);

      await migrateToLatest(db, postgres ? 'postgres' : 'sqlite', postgres ? await currentSchema(db) : undefined);
      for (const word of words) expect(await found(word)).toEqual([TRIP]);
      expect(await keywordTexts(db)).toEqual(before);
    } finally {
      await storage.close();
    }
  });
});

const FOLLOW_UP = 'Send the follow-up e-mail to Dana.';
const CHECKIN = 'Hotel checkin opens at 3 pm.';
const GUEST = 'Anna met Zoë-Élise in Porto.';

describe.each(storageBackends())('migration 0029 (hyphenated compounds also as one word): $name', (backend) => {
  afterAll(() => backend.teardown());

  it('reads the compounds of memories written before it as one word too, and leaves the others', async () => {
    const { storage, db, postgres, found } = await storeHolding(backend, [FOLLOW_UP, CHECKIN, TEA, GUEST]);
    try {
      expect(await found('followup')).toEqual([FOLLOW_UP]);
      expect(await found('email')).toEqual([FOLLOW_UP]);
      const before = await keywordTexts(db);
      expect(before).toEqual([
        'Send the follow-up e-mail to Dana. followup email',
        null,
        null,
        'Anna met Zoe-Elise in Porto. ZoeElise',
      ]);

      // As the build before read them: the text as written, the compound in its parts only.
      await asWrittenBefore(db, postgres, '0029_keyword_text_compounds');
      expect(await found('followup')).toEqual([]);
      expect(await found('email')).toEqual([]);
      expect(await found('zoeelise')).toEqual([]);
      expect(await found('follow up')).toEqual([FOLLOW_UP]);

      await migrateToLatest(db, postgres ? 'postgres' : 'sqlite', postgres ? await currentSchema(db) : undefined);
      expect(await found('followup')).toEqual([FOLLOW_UP]);
      expect(await found('email')).toEqual([FOLLOW_UP]);
      expect(await found('follow up')).toEqual([FOLLOW_UP]);
      expect(await found('checkin')).toEqual([CHECKIN]);
      expect(await found('zoeelise')).toEqual([GUEST]);
      expect(await found('tea')).toEqual([TEA]);
      expect(await keywordTexts(db)).toEqual(before);
    } finally {
      await storage.close();
    }
  });
});

/** A fresh store of `backend` whose workspace `ws` holds `texts`, and what a migration's test reads of it. */
async function storeHolding(backend: StorageBackend, texts: readonly string[]) {
  const storage = await backend.open(4);
  try {
    await storage.workspaces.create(workspace('ws'));
    await storage.memories.insert(texts.map((text, i) => memory('ws', text, axisVector(4, i % 4))));
  } catch (error) {
    await storage.close();
    throw error;
  }
  return { storage, db: storage.sqlContext.db, postgres: backend.name !== 'sqlite', found: contentsFound(storage) };
}

/** The contents of the memories of workspace `ws` a keyword search for a term finds. */
const contentsFound =
  (storage: SqlStorage) =>
  async (term: string): Promise<string[]> =>
    (await storage.memories.keywordSearch('ws', [term], { k: 10 })).map((hit) => hit.memory.content);

/** The database as the build before `migration` left it: every keyword text as the content, the migration not run. */
async function asWrittenBefore(db: Parameters<typeof migrateToLatest>[0], postgres: boolean, migration: string) {
  await sql`UPDATE memories SET keyword_text = NULL`.execute(db);
  if (!postgres) {
    await sql`DELETE FROM memory_fts`.execute(db);
    await sql`INSERT INTO memory_fts (rowid, content) SELECT seq, content FROM memories`.execute(db);
  }
  await sql`DELETE FROM kysely_migration WHERE name = ${migration}`.execute(db);
}

const keywordTexts = async (db: Parameters<typeof migrateToLatest>[0]): Promise<Array<string | null>> =>
  (await sql<{ keyword_text: string | null }>`SELECT keyword_text FROM memories ORDER BY seq`.execute(db)).rows.map(
    (row) => row.keyword_text,
  );

const currentSchema = async (db: Parameters<typeof migrateToLatest>[0]): Promise<string> =>
  (await sql<{ schema: string }>`SELECT current_schema() AS schema`.execute(db)).rows[0]!.schema;

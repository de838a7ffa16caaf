import Database from 'better-sqlite3';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { WarmUpReport } from '../../src/storage/sql/search-engine.js';
import type { SqlStorage } from '../../src/storage/sql/storage.js';
import type { NewMemory } from '../../src/storage/types.js';
import { openStorage } from '../../src/storage/index.js';
import { openSqliteStorage } from '../../src/storage/sqlite/open.js';
import { DEFAULT_VECTOR_INDEX, WorkspaceVectorIndexes } from '../../src/storage/sqlite/vector-index.js';
import { memory, seededVector, workspace } from '../support/records.js';

const DIMS = 16;
const dir = mkdtempSync(join(tmpdir(), 'memd-vector-snapshot-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const seeded = (seed: number): Float32Array => seededVector(DIMS, seed);

let lastWarmUp: WarmUpReport | null = null;

/** Opens the database file and warms its search index (from the snapshot when one is there), on the HNSW path. */
async function start(path: string): Promise<SqlStorage> {
  const storage = await openSqliteStorage({ path, dimensions: DIMS, annMinSize: 0 });
  lastWarmUp = await storage.engine.warmUp(storage.sqlContext.db);
  return storage;
}

/** A new database file with `count` memories in ws_a (vectors seeded 0…count-1), started and still running. */
async function seededDatabase(
  name: string,
  count: number,
): Promise<{ path: string; storage: SqlStorage; memories: NewMemory[] }> {
  const path = join(dir, `${name}.sqlite`);
  const storage = await start(path);
  await storage.workspaces.create(workspace('ws_a'));
  const memories = Array.from({ length: count }, (_, i) => memory('ws_a', `${name} ${i}`, seeded(i)));
  await storage.memories.insert(memories);
  return { path, storage, memories };
}

/**
 * Ids of the nearest active memories by the index, and by an exact scan of the database (archived memories included
 * in the scan, which the index cannot answer, and left out after it).
 */
async function nearest(
  storage: SqlStorage,
  vector: Float32Array,
  k = 5,
): Promise<{ index: string[]; exact: string[] }> {
  const index = await storage.memories.vectorSearch('ws_a', vector, { k });
  const scanned = await storage.memories.vectorSearch('ws_a', vector, {
    k: k + 5,
    filter: { statuses: ['active', 'archived'] },
  });
  const archived = new Set(
    (
      await storage.memories.getMany(
        'ws_a',
        scanned.map((h) => h.id),
      )
    )
      .filter((m) => m.status === 'archived')
      .map((m) => m.id),
  );
  return {
    index: index.map((h) => h.id),
    exact: scanned
      .map((h) => h.id)
      .filter((id) => !archived.has(id))
      .slice(0, k),
  };
}

describe('HNSW snapshot (SQLite)', () => {
  it('a clean stop saves the graphs, and the next start answers from them as before', async () => {
    const { path, storage: first, memories } = await seededDatabase('clean', 200);
    const before = await Promise.all([3, 50, 199].map((i) => nearest(first, seeded(i))));
    await first.close();
    expect(readdirSync(`${path}.hnsw`)).toContain('manifest.json');

    const second = await start(path);
    expect(lastWarmUp).toEqual({ vectors: 200, fromSnapshot: 200, sealed: true });
    for (const [n, i] of [3, 50, 199].entries()) {
      const after = await nearest(second, seeded(i));
      expect(after).toEqual(before[n]);
      expect(after.index[0]).toBe(memories[i]!.id);
    }
    await second.close();
  });

  it('a snapshot older than the database is corrected at start: new, changed, deleted and archived memories', async () => {
    const { path, storage: first, memories: kept } = await seededDatabase('stale', 100);
    await first.close(); // the snapshot holds these 100
    cpSync(`${path}.hnsw`, `${path}.hnsw-before`, { recursive: true });

    // A run that writes and then dies without a clean stop, so that its snapshot is never written: its stop below
    // stands for the crash (one process owns the file at a time), and the snapshot of the run before is put back.
    const crashed = await start(path);
    const added = Array.from({ length: 20 }, (_, i) => memory('ws_a', `added ${i}`, seeded(1_000 + i)));
    await crashed.memories.insert(added);
    await crashed.memories.update('ws_a', kept[0]!.id, { content: 'kept 0, rewritten' }, seeded(2_000));
    await crashed.memories.update('ws_a', kept[1]!.id, { status: 'deleted' });
    await crashed.memories.update('ws_a', kept[2]!.id, { status: 'archived' });
    await crashed.memories.hardDelete('ws_a', [kept[3]!.id]);
    await crashed.close();
    rmSync(`${path}.hnsw`, { recursive: true });
    renameSync(`${path}.hnsw-before`, `${path}.hnsw`);

    const restarted = await start(path);
    // 100 in the snapshot, 4 of them changed or gone; 20 new and 1 new vector.
    expect(lastWarmUp).toEqual({ vectors: 117, fromSnapshot: 96, sealed: false });
    for (const [i, m] of added.entries()) expect((await nearest(restarted, seeded(1_000 + i))).index[0]).toBe(m.id);
    // The rewritten memory is found by its new vector, not by its old one.
    expect((await nearest(restarted, seeded(2_000))).index[0]).toBe(kept[0]!.id);
    expect((await nearest(restarted, seeded(0), 20)).index).not.toContain(kept[0]!.id);
    for (const gone of [kept[1]!, kept[2]!, kept[3]!]) {
      const index = (await restarted.memories.vectorSearch('ws_a', gone.embedding!, { k: 20 })).map((h) => h.id);
      expect(index).not.toContain(gone.id);
    }
    // Everything else answers as an exact scan does.
    for (const i of [10, 40, 99]) {
      const { index, exact } = await nearest(restarted, seeded(i));
      expect(index[0]).toBe(kept[i]!.id);
      expect(index).toEqual(exact);
    }
    await restarted.close();
  });

  it('a sealed snapshot is trusted for one opening only: a run that dies after opening leaves its writes checked', async () => {
    const { path, storage: first } = await seededDatabase('sealed', 40);
    await first.close(); // sealed: the database names this snapshot

    // A run that opens the database (taking the seal), writes, and dies: its files are copied as they are on disk
    // mid-run (database, its write-ahead log, and the snapshot of the clean close before), and started elsewhere.
    const running = await start(path);
    expect(lastWarmUp).toEqual({ vectors: 40, fromSnapshot: 40, sealed: true });
    const written = memory('ws_a', 'written after the seal was taken', seeded(500));
    await running.memories.insert([written]);
    const copy = join(dir, 'sealed-crashed.sqlite');
    for (const suffix of ['', '-wal', '.hnsw']) cpSync(`${path}${suffix}`, `${copy}${suffix}`, { recursive: true });
    await running.close();

    const restarted = await start(copy);
    expect(lastWarmUp).toEqual({ vectors: 41, fromSnapshot: 40, sealed: false });
    expect((await nearest(restarted, seeded(500))).index[0]).toBe(written.id);
    await restarted.close();
  });

  it('a migration that changes no vector keeps the seal; one that may does not', async () => {
    const { path, storage: first } = await seededDatabase('migrated', 30);
    await first.close();
    // As the build before migration 0027 left the database: closed cleanly, the snapshot sealed.
    const forget = (name: string) => {
      const raw = new Database(path);
      raw.prepare('DELETE FROM kysely_migration WHERE name = ?').run(name);
      raw.close();
    };
    forget('0027_keyword_text_code');
    const second = await start(path);
    expect(lastWarmUp).toEqual({ vectors: 30, fromSnapshot: 30, sealed: true });
    await second.close();

    // 0024 adds columns and indexes of memories' mentioned days, and says nothing of vectors: the snapshot is checked.
    const raw = new Database(path);
    for (const index of ['memories_mentioned', 'memories_mentions_unread']) raw.exec(`DROP INDEX ${index}`);
    for (const column of ['mentioned_from', 'mentioned_to', 'mentions_read'])
      raw.exec(`ALTER TABLE memories DROP COLUMN ${column}`);
    raw.close();
    forget('0024_mentioned_dates');
    const third = await start(path);
    expect(lastWarmUp).toEqual({ vectors: 30, fromSnapshot: 30, sealed: false });
    await third.close();
  });

  it('a snapshot serves an index with other beams, not one with another connectivity', async () => {
    const { path, storage: first, memories } = await seededDatabase('beams', 60);
    await first.close();
    const startWith = async (vectorIndex: Partial<typeof DEFAULT_VECTOR_INDEX>) => {
      const storage = await openSqliteStorage({ path, dimensions: DIMS, annMinSize: 0, vectorIndex });
      const report = await storage.engine.warmUp(storage.sqlContext.db);
      expect((await nearest(storage, seeded(7))).index[0]).toBe(memories[7]!.id);
      await storage.close();
      return report;
    };
    // MEMD_SQLITE_INSERT_BEAM reaches the graph: the snapshot a start with it saves says so.
    const configured = await openStorage({ kind: 'sqlite', path, insertBeam: 40 }, DIMS);
    await configured.engine.warmUp(configured.sqlContext.db);
    await configured.close();
    const manifest = JSON.parse(readFileSync(join(`${path}.hnsw`, 'manifest.json'), 'utf8'));
    expect(manifest.options.expansionAdd).toBe(40);
    const otherBeams = { expansionAdd: DEFAULT_VECTOR_INDEX.expansionAdd * 2, expansionSearch: 40 };
    expect(await startWith(otherBeams)).toEqual({ vectors: 60, fromSnapshot: 60, sealed: true });
    expect(await startWith({ connectivity: DEFAULT_VECTOR_INDEX.connectivity / 2 })).toEqual({
      vectors: 60,
      fromSnapshot: 0,
      sealed: false,
    });
  });

  it('a damaged snapshot is ignored and the graphs are built from the database', async () => {
    const { path, storage: first, memories } = await seededDatabase('damaged', 50);
    await first.close();
    for (const name of readdirSync(`${path}.hnsw`))
      if (name.endsWith('.usearch')) writeFileSync(join(`${path}.hnsw`, name), 'not a graph');

    const second = await start(path);
    expect(lastWarmUp).toEqual({ vectors: 50, fromSnapshot: 0, sealed: false });
    for (const i of [0, 25, 49]) expect((await nearest(second, seeded(i))).index[0]).toBe(memories[i]!.id);
    await second.close();
  });

  it('a memory written while a loaded snapshot is being checked is kept, whatever the check saw', () => {
    const snapshot = join(dir, 'live.hnsw');
    const entry = (seq: number) => ({ seq, id: `m${seq}`, derived: false, factOf: null, embedding: seeded(seq) });
    const saved = new WorkspaceVectorIndexes({ ...DEFAULT_VECTOR_INDEX, dimensions: DIMS });
    saved.upsert('ws', [1, 2, 3].map(entry));
    saved.save(snapshot);

    const loaded = new WorkspaceVectorIndexes({ ...DEFAULT_VECTOR_INDEX, dimensions: DIMS });
    expect(loaded.load(snapshot)).toBe('unverified');
    loaded.upsert('ws', [entry(4)]); // written after the warm-up's scan passed it
    loaded.upsert('ws', [entry(3)]); // rewritten: the write, not the snapshot, is authoritative
    const { embedding, ...stored } = entry(1);
    const decode = (bytes: Uint8Array) => new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
    expect(loaded.confirm('ws', [{ ...stored, vector: new Uint8Array(embedding.buffer) }], decode)).toBe(1); // the database no longer holds 2
    loaded.dropUnverified();
    const found = (seq: number) => loaded.search('ws', [seeded(seq)], 1)[0]!.map((n) => n.memory.id);
    expect([1, 3, 4].map(found)).toEqual([['m1'], ['m3'], ['m4']]);
    expect(loaded.size('ws')).toBe(3);
    expect(found(2)).not.toEqual(['m2']);
  });

  it('re-embedding drops the snapshot of the old vectors', async () => {
    const { path, storage: first } = await seededDatabase('reembed', 1);
    await first.close();
    const second = await start(path);
    await second.engine.dropVectorIndexes(second.sqlContext.db);
    expect(existsSync(`${path}.hnsw`)).toBe(false);
    await second.close();
  });
});

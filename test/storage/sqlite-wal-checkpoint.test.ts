import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { RESTART_FRAMES } from '../../src/storage/sqlite/checkpoint-worker.js';
import { openSqliteStorage } from '../../src/storage/sqlite/open.js';
import { WalCheckpoints } from '../../src/storage/sqlite/wal-checkpoint.js';
import { memory, seededVector, workspace } from '../support/records.js';

const DIMS = 16;
const dir = mkdtempSync(join(tmpdir(), 'memd-wal-checkpoint-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Pages SQLite's automatic checkpoint would have copied at: its default `wal_autocheckpoint`. */
const AUTOCHECKPOINT_PAGES = 1_000;
const PAGE = 4_096;

/** Memories of about a kilobyte each: 3,000 of them are about 1,000 pages of log and more. */
const bulky = (workspaceId: string, count: number) =>
  Array.from({ length: count }, (_, i) =>
    memory(workspaceId, `memory ${i} ${'of some length, '.repeat(64)}`, seededVector(DIMS, i)),
  );

const size = (path: string): number => statSync(path).size;

/** A database file written as memd's writer writes it (WAL, no automatic checkpoint), with one table of text. */
function writerOf(path: string) {
  const writer = new Database(path);
  writer.pragma('journal_mode = WAL');
  writer.pragma('wal_autocheckpoint = 0');
  writer.pragma('busy_timeout = 5000');
  writer.exec('CREATE TABLE t (x TEXT)');
  return { writer, insert: writer.prepare('INSERT INTO t VALUES (?)') };
}

describe('write-ahead log checkpoints', () => {
  it('the writer commits without checkpointing: its log outgrows the automatic checkpoint, the file stays put', async () => {
    const path = join(dir, 'writer.sqlite');
    // No checkpoint of the thread's within the test: what reaches the file would be the writer's own.
    const storage = await openSqliteStorage({ path, dimensions: DIMS, checkpointIntervalMs: 3_600_000 });
    await storage.workspaces.create(workspace('ws_a'));
    const before = size(path);
    await storage.memories.insert(bulky('ws_a', 3_000));

    expect(size(`${path}-wal`)).toBeGreaterThan(AUTOCHECKPOINT_PAGES * PAGE);
    expect(size(path)).toBe(before);
    await storage.close();
    // The writer's close checkpoints what is left, as SQLite's last connection does.
    expect(size(path)).toBeGreaterThan(AUTOCHECKPOINT_PAGES * PAGE);
  });

  it('the checkpoint thread copies the log into the file, and the memories are read back from it', async () => {
    const path = join(dir, 'thread.sqlite');
    const storage = await openSqliteStorage({ path, dimensions: DIMS, checkpointIntervalMs: 20 });
    await storage.workspaces.create(workspace('ws_a'));
    const written = bulky('ws_a', 3_000);
    await storage.memories.insert(written);

    await vi.waitFor(() => expect(size(path)).toBeGreaterThan(AUTOCHECKPOINT_PAGES * PAGE), { timeout: 10_000 });

    const read = await storage.memories.getMany('ws_a', [written[0]!.id, written[2_999]!.id]);
    expect(read.map((m) => m.content).sort()).toEqual([written[0]!.content, written[2_999]!.content].sort());
    await storage.close();
  });

  it('once the log is in the file, the next write starts it again from its beginning', async () => {
    const path = join(dir, 'restart.sqlite');
    const { writer, insert } = writerOf(path);
    writer.transaction(() => {
      for (let i = 0; i < 2_000; i++) insert.run('x'.repeat(1_000));
    })();
    const checkpoints = new WalCheckpoints(path);

    const first = await checkpoints.run();
    expect(first!.log).toBeGreaterThan(AUTOCHECKPOINT_PAGES / 2);
    expect(first!.checkpointed).toBe(first!.log);
    insert.run('one more');
    const second = await checkpoints.run();
    // A log that had kept growing would hold the first one's frames and more.
    expect(second!.log).toBeLessThan(10);
    expect(second!.checkpointed).toBe(second!.log);

    await checkpoints.close();
    expect(await checkpoints.run()).toBeNull();
    expect(writer.prepare('SELECT count(*) AS n FROM t').get()).toEqual({ n: 2_001 });
    writer.close();
  });

  it('under writes that never stop, the log is emptied again and again rather than growing with them', async () => {
    const path = join(dir, 'sustained.sqlite');
    const { writer, insert } = writerOf(path);
    const checkpoints = new WalCheckpoints(path);
    const frames = () => (writer.pragma('wal_checkpoint(PASSIVE)') as Array<{ log: number }>)[0]!.log;

    // Writes go on while each checkpoint runs, a short transaction at a time with the event loop turning between
    // them, as memd's writer does: never is the whole log copied before another commit.
    let restarts = 0;
    let written = 0;
    for (let round = 0; written < 80_000; round++) {
      let done = false;
      const running = checkpoints.run().finally(() => (done = true));
      do {
        writer.transaction(() => {
          for (let i = 0; i < 100; i++) insert.run(`${written + i} ${'x'.repeat(1_000)}`);
        })();
        written += 100;
        await new Promise((resolve) => setTimeout(resolve, 0));
      } while (!done || written < (round + 1) * 4_000);
      if ((await running)?.restarted) restarts++;
    }

    // Far more pages were written than the bound: a log that only grew would hold them all.
    expect(written * 1_000).toBeGreaterThan(2 * 2 * RESTART_FRAMES * PAGE);
    expect(restarts).toBeGreaterThan(0);
    expect(frames()).toBeLessThan(2 * RESTART_FRAMES);
    expect(writer.prepare('SELECT count(*) AS n FROM t').get()).toEqual({ n: written });
    await checkpoints.close();
    writer.close();
  });
});

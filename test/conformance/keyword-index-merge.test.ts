import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { mergeKeywordIndex } from '../../src/storage/sqlite/fts-merge.js';
import { openSqliteStorage } from '../../src/storage/sqlite/open.js';
import { axisVector, memory, workspace } from '../support/records.js';

const DIMS = 8;
const dir = mkdtempSync(join(tmpdir(), 'memd-fts-merge-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('SQLite keyword index maintenance', () => {
  it('merges the segments many small writes leave into one, and searches find the same memories', async () => {
    const storage = await openSqliteStorage({ path: join(dir, 'merge.sqlite'), dimensions: DIMS });
    await storage.workspaces.create(workspace('ws_a'));
    // Each insert is its own write: FTS5 adds a segment per write and merges only in groups.
    for (let i = 0; i < 60; i++) {
      await storage.memories.insert([
        memory(
          'ws_a',
          `note ${i} about ${i % 2 === 0 ? 'gardening' : 'sailing'} and the harbour`,
          axisVector(DIMS, i % DIMS),
        ),
      ]);
    }
    const search = async () =>
      (await storage.memories.keywordSearch('ws_a', ['sailing'], { k: 100 })).map((r) => r.id).sort();
    const before = await search();
    expect(before).toHaveLength(30);
    expect(await mergeKeywordIndex(storage.sqlContext.db)).toBe(1);
    expect(await search()).toEqual(before);
    expect(await storage.memories.keywordMatchCounts('ws_a', [['harbour']], { cap: 100 })).toEqual([60]);
    await storage.close();
  });

  it('merges by itself once a burst of writes pauses', async () => {
    const path = join(dir, 'pause.sqlite');
    const storage = await openSqliteStorage({
      path,
      dimensions: DIMS,
      keywordMerges: { quietMs: 200, minChanges: 50 },
    });
    await storage.workspaces.create(workspace('ws_a'));
    for (let i = 0; i < 60; i++) {
      await storage.memories.insert([memory('ws_a', `note ${i} about the harbour`, axisVector(DIMS, i % DIMS))]);
    }
    const segments = () => {
      const reader = new Database(path, { readonly: true });
      try {
        return (reader.prepare('SELECT count(DISTINCT segid) AS n FROM memory_fts_idx').get() as { n: number }).n;
      } finally {
        reader.close();
      }
    };
    expect(segments()).toBeGreaterThan(1);
    await vi.waitFor(() => expect(segments()).toBe(1), { timeout: 5_000, interval: 50 });
    expect(await storage.memories.keywordMatchCounts('ws_a', [['harbour']], { cap: 100 })).toEqual([60]);
    await storage.close();
  });

  it('takes no step of a merge while what it gives way to holds it back', async () => {
    const path = join(dir, 'give-way.sqlite');
    // A server's client requests in flight (ForegroundActivity.giveWay): here a gate the test opens.
    let open = false;
    const waiting: Array<() => void> = [];
    let asked = 0;
    const giveWay = () => {
      asked++;
      return open ? Promise.resolve() : new Promise<void>((resolve) => waiting.push(resolve));
    };
    const storage = await openSqliteStorage({
      path,
      dimensions: DIMS,
      keywordMerges: { quietMs: 100, minChanges: 50 },
      giveWay,
    });
    await storage.workspaces.create(workspace('ws_a'));
    for (let i = 0; i < 60; i++) {
      await storage.memories.insert([memory('ws_a', `note ${i} about the harbour`, axisVector(DIMS, i % DIMS))]);
    }
    const reader = new Database(path, { readonly: true });
    const segments = () =>
      (reader.prepare('SELECT count(DISTINCT segid) AS n FROM memory_fts_idx').get() as { n: number }).n;
    const left = segments();
    expect(left).toBeGreaterThan(1);
    // The pause has started a merge, which waits at its first step.
    await vi.waitFor(() => expect(asked).toBeGreaterThan(0), { timeout: 5_000, interval: 20 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(segments()).toBe(left);
    open = true;
    for (const resume of waiting.splice(0)) resume();
    await vi.waitFor(() => expect(segments()).toBe(1), { timeout: 5_000, interval: 50 });
    reader.close();
    await storage.close();
  });
});

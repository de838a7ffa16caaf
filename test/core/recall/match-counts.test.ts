import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MatchCountCache } from '../../../src/core/recall/match-counts.js';
import { openSqliteStorage } from '../../../src/storage/sqlite/open.js';
import type { SqlStorage } from '../../../src/storage/sql/storage.js';
import { axisVector, memory, workspace } from '../../support/records.js';
import { ManualClock } from '../../support/server.js';

const DIMS = 8;
const dir = mkdtempSync(join(tmpdir(), 'memd-match-counts-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A real SQLite store whose match-count reads are counted, and fail while `failing` is set. */
async function countedStorage(name: string) {
  const storage: SqlStorage = await openSqliteStorage({ path: join(dir, `${name}.sqlite`), dimensions: DIMS });
  await storage.workspaces.create(workspace('ws_a'));
  await storage.memories.insert([
    memory('ws_a', 'Melanie took a pottery class in Geneva', axisVector(DIMS, 0)),
    memory('ws_a', 'The pottery class in Geneva was full', axisVector(DIMS, 1)),
    memory('ws_a', 'Caroline moved to Geneva', axisVector(DIMS, 2)),
  ]);
  const reads: number[] = [];
  /** `held`: reads up to that cap wait for `release` before they read. */
  const state: { failing: boolean; held?: { cap: number; release: Promise<void> } } = { failing: false };
  const read = storage.memories.keywordMatchCounts.bind(storage.memories);
  storage.memories.keywordMatchCounts = async (workspaceId, queries, options) => {
    reads.push(queries.length);
    if (state.failing) throw new Error('the database went away');
    if (options.cap === state.held?.cap) await state.held.release;
    return read(workspaceId, queries, options);
  };
  return { storage, reads, state };
}

describe('keyword match counts of a recall', () => {
  it('asks once for what concurrent recalls ask at the same time, whatever the case or the order of the words', async () => {
    const { storage, reads } = await countedStorage('shared');
    const cache = new MatchCountCache(storage);
    const [first, second] = await Promise.all([
      cache.matchCounts('ws_a', [['Geneva'], ['pottery', 'class']], 100),
      cache.matchCounts('ws_a', [['geneva'], ['class', 'Pottery'], ['caroline']], 100),
    ]);
    expect(first).toEqual([3, 2]);
    expect(second).toEqual([3, 2, 1]);
    // The first read counted both of its queries; the second only Caroline, which nobody was counting.
    expect(reads).toEqual([2, 1]);
    expect(await cache.matchCounts('ws_a', [['GENEVA']], 100)).toEqual([3]);
    expect(reads).toEqual([2, 1]);
    // A lower cap is answered from the exact count: "more than 1" is 2.
    expect(await cache.matchCounts('ws_a', [['geneva']], 1)).toEqual([2]);
    expect(reads).toEqual([2, 1]);
    await storage.close();
  });

  it('answers a count up to a lower cap from one read up to a higher cap, and reads again for a higher one', async () => {
    const { storage, reads } = await countedStorage('caps');
    const cache = new MatchCountCache(storage);
    // A term given as its only alternative is the same count as the term.
    expect(await cache.matchCounts('ws_a', [[['geneva']], ['pottery']], 1)).toEqual([2, 2]);
    expect(reads).toEqual([2]);
    expect(await cache.matchCounts('ws_a', [['Geneva'], [['pottery']]], 0)).toEqual([1, 1]);
    expect(reads).toEqual([2]);
    // "More than 1" says nothing of the count up to 10: read again, and the exact count then answers every cap.
    expect(await cache.matchCounts('ws_a', [['geneva']], 10)).toEqual([3]);
    expect(reads).toEqual([2, 1]);
    expect(await cache.matchCounts('ws_a', [['geneva']], 1)).toEqual([2]);
    expect(await cache.matchCounts('ws_a', [['geneva']], 100)).toEqual([3]);
    expect(reads).toEqual([2, 1]);
    // A read up to another cap under way is not waited for: it may visit more rows.
    const [high, low] = await Promise.all([
      cache.matchCounts('ws_a', [['caroline']], 10),
      cache.matchCounts('ws_a', [['Caroline']], 0),
    ]);
    expect([high, low]).toEqual([[1], [1]]);
    expect(reads).toEqual([2, 1, 1, 1]);
    await storage.close();
  });

  it('keeps the count that says more when a read up to a lower cap ends after one up to a higher cap', async () => {
    const { storage, reads, state } = await countedStorage('order');
    const cache = new MatchCountCache(storage);
    let release = () => {};
    state.held = { cap: 0, release: new Promise<void>((resolve) => (release = resolve)) };
    const low = cache.matchCounts('ws_a', [['geneva']], 0);
    expect(await cache.matchCounts('ws_a', [['geneva']], 10)).toEqual([3]);
    release();
    // The read up to 0 ("more than 0") ends last; the exact 3 read up to 10 is kept and answers a cap of 10 again.
    expect(await low).toEqual([1]);
    expect(reads).toEqual([1, 1]);
    expect(await cache.matchCounts('ws_a', [['geneva']], 10)).toEqual([3]);
    expect(reads).toEqual([1, 1]);
    await storage.close();
  });

  it('reports a failed read to everyone waiting on it, and reads again when asked again', async () => {
    const { storage, reads, state } = await countedStorage('failing');
    const cache = new MatchCountCache(storage);
    state.failing = true;
    const asked = [cache.matchCounts('ws_a', [['pottery']], 100), cache.matchCounts('ws_a', [['Pottery']], 100)];
    for (const answer of asked) await expect(answer).rejects.toThrow('the database went away');
    expect(reads).toEqual([1]);
    state.failing = false;
    expect(await cache.matchCounts('ws_a', [['pottery']], 100)).toEqual([2]);
    expect(reads).toEqual([1, 1]);
    await storage.close();
  });

  it('answers with a count past its minute while reading it again, and reads before answering when it is too old', async () => {
    const { storage, reads } = await countedStorage('stale');
    const clock = new ManualClock();
    const cache = new MatchCountCache(storage, clock);
    expect(await cache.matchCounts('ws_a', [['geneva']], 100)).toEqual([3]);
    await storage.memories.insert([memory('ws_a', 'Geneva in the rain', axisVector(DIMS, 3))]);
    clock.advance(30_000);
    expect(await cache.matchCounts('ws_a', [['geneva']], 100)).toEqual([3]);
    expect(reads).toEqual([1]);
    clock.advance(40_000);
    // Past its minute: the old count answers, and the count is read again meanwhile.
    expect(await cache.matchCounts('ws_a', [['geneva']], 100)).toEqual([3]);
    expect(reads).toEqual([1, 1]);
    await expect.poll(() => cache.matchCounts('ws_a', [['geneva']], 100)).toEqual([4]);
    expect(reads).toEqual([1, 1]);
    await storage.memories.insert([memory('ws_a', 'Geneva at night', axisVector(DIMS, 4))]);
    clock.advance(11 * 60_000);
    // Too old to answer: read before answering.
    expect(await cache.matchCounts('ws_a', [['geneva']], 100)).toEqual([5]);
    expect(reads).toEqual([1, 1, 1]);
    await storage.close();
  });
});

import type { Storage } from '../../storage/types.js';
import type { RecurringWork } from '../../tasks/recurring.js';
import { mentionsOf } from './mentioned-dates.js';

export const MENTIONS_BACKFILL_TASK = 'memories.mentions';
/** How often memories written before their named days were read on write are looked for. */
const INTERVAL_MS = 60_000;
const BATCH = 500;
/** One occurrence works this long at most; the next goes on (a million memories: a few minutes of occurrences). */
const BUDGET_MS = 5_000;

/**
 * Memories written before migration 0024 have no named days (mentioned-dates.ts) until this reads them: a recurring
 * task on whichever node claims it, a batch at a time, a cheap index lookup once none is left.
 */
export const mentionsBackfill = (storage: Storage): RecurringWork => ({
  kind: MENTIONS_BACKFILL_TASK,
  intervalMs: INTERVAL_MS,
  run: async () => void (await readUnreadMentions(storage, BUDGET_MS)),
});

/** Reads the named days of unread memories for up to `budgetMs`; how many it read. */
export async function readUnreadMentions(storage: Storage, budgetMs: number): Promise<number> {
  const started = performance.now();
  let read = 0;
  while (performance.now() - started < budgetMs) {
    const unread = await storage.memories.mentionsUnread(BATCH);
    if (unread.length === 0) break;
    await storage.transaction((tx) =>
      tx.memories.setMentions(unread.map((memory) => ({ id: memory.id, mentions: mentionsOf(memory) }))),
    );
    read += unread.length;
  }
  return read;
}

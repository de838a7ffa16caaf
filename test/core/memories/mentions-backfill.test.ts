import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readUnreadMentions } from '../../../src/core/memories/mentions-backfill.js';
import { openSqliteStorage } from '../../../src/storage/sqlite/open.js';
import { FACT_SCOPE } from '../../../src/storage/types.js';
import { axisVector, memory, workspace } from '../../support/records.js';

const DIMS = 8;
const DAY = 86_400_000;
const dir = mkdtempSync(join(tmpdir(), 'memd-mentions-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the named days of memories written before they were read on write', () => {
  it('are read from each memory’s event time, a batch at a time, once', async () => {
    const storage = await openSqliteStorage({ path: join(dir, 'backfill.sqlite'), dimensions: DIMS });
    await storage.workspaces.create(workspace('ws_a'));
    const created = '2026-12-05T12:00:00.000Z';
    const rows = [
      memory('ws_a', 'Flight to Lisbon on 14 December.', axisVector(DIMS, 0), { created_at: created }),
      // Relative words count from the event time its metadata gave, not from when it was written.
      memory('ws_a', 'Yesterday I finished the report.', axisVector(DIMS, 1), {
        created_at: created,
        occurred_at: '2023-05-08T10:00:00.000Z',
      }),
      memory('ws_a', 'I like Thai food.', axisVector(DIMS, 2), { created_at: created }),
      // An atomic fact stands for its parent: its days are not read.
      memory('ws_a', 'The flight is on 14 December.', axisVector(DIMS, 0), {
        created_at: created,
        source_scope: FACT_SCOPE,
      }),
      ...Array.from({ length: 600 }, (_, i) =>
        memory('ws_a', `Note ${i}`, axisVector(DIMS, 3), { created_at: created }),
      ),
    ];
    await storage.memories.insert(rows);
    // As a database migrated to 0024 has them: columns empty, not read.
    await storage.sqlContext.db.updateTable('memories').set({ mentions_read: 0 }).execute();

    expect(await readUnreadMentions(storage, 60_000)).toBe(rows.length);
    expect(await storage.memories.mentionsUnread(10)).toEqual([]);
    const day = (date: string) => ({ start: `${date}T00:00:00.000Z`, end: `${date}T23:59:59.999Z` });
    const mentioning = (date: string) =>
      storage.memories.mentioning('ws_a', day(date), { limit: 10, maxSpanMs: 400 * DAY });
    expect(await mentioning('2026-12-14')).toEqual([rows[0]!.id]);
    expect(await mentioning('2023-05-07')).toEqual([rows[1]!.id]);
    expect(await readUnreadMentions(storage, 60_000)).toBe(0);
    await storage.close();
  });
});

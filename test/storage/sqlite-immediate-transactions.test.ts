import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import { openSqliteStorage } from '../../src/storage/sqlite/open.js';
import { memory, seededVector, workspace } from '../support/records.js';

const require = createRequire(import.meta.url);
const DIMS = 16;
const dir = mkdtempSync(join(tmpdir(), 'memd-immediate-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('SQLite transactions', () => {
  it('a transaction that reads before it writes waits for the write lock another connection holds, as one that writes first does', async () => {
    const path = join(dir, 'memd.sqlite');
    const storage = await openSqliteStorage({ path, dimensions: DIMS, checkpointIntervalMs: 3_600_000 });
    await storage.workspaces.create(workspace('ws_a'));
    // Another connection, on a thread of its own as the checkpoint thread is, holds the write lock for a moment (a
    // wait for the lock blocks this thread: better-sqlite3 is synchronous).
    const holder = new Worker(
      `const Database = require(${JSON.stringify(require.resolve('better-sqlite3'))});
       const { parentPort } = require('node:worker_threads');
       const db = new Database(${JSON.stringify(path)});
       db.exec('BEGIN IMMEDIATE');
       parentPort.postMessage('locked');
       Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 300);
       db.exec('COMMIT');
       db.close();`,
      { eval: true },
    );
    await new Promise((resolve) => holder.once('message', resolve));
    const released = new Promise((resolve) => holder.once('exit', resolve));
    // Reads first (as a write re-reads what it changes), then writes: a deferred BEGIN would fail the write at once
    // with SQLITE_BUSY, since SQLite does not wait to upgrade a reader.
    const written = storage.transaction(async (tx) => {
      await tx.memories.findByContentHashes('ws_a', ['none']);
      await tx.memories.insert([memory('ws_a', 'written after the wait', seededVector(DIMS, 1))]);
    });
    await Promise.all([written, released]);
    expect((await storage.memories.list('ws_a', {}, { limit: 10 })).items.map((m) => m.content)).toEqual([
      'written after the wait',
    ]);
    await storage.close();
  });
});

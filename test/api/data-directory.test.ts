import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { spawnServer } from '../support/process.js';
import { client, startServer } from '../support/server.js';

const dataDir = mkdtempSync(join(tmpdir(), 'memd-owner-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('a SQLite data directory belongs to one server', () => {
  it('refuses a second server while the first runs, in this process or another, and admits the next after a stop or a crash', async () => {
    const first = await startServer({ dataDir });
    const id = (await client(first.url).post('/v1/memories', { content: 'The vault door opens at nine.' })).body.memory
      .id as string;
    try {
      await expect(startServer({ dataDir })).rejects.toThrow(/in use by another memd process/);
      await expect(spawnServer({ MEMD_DATA_DIR: dataDir })).rejects.toThrow(/in use by another memd process/);
    } finally {
      await first.stop();
    }

    const crashed = await spawnServer({ MEMD_DATA_DIR: dataDir });
    crashed.child.kill('SIGKILL');
    expect(await crashed.exited).toBe('SIGKILL');
    // The lock went with the process: no wait, no manual cleanup.
    const next = await startServer({ dataDir });
    try {
      expect((await client(next.url).get(`/v1/memories/${id}`)).status).toBe(200);
    } finally {
      await next.stop();
    }
  }, 60_000);
});

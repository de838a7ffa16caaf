import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { client, startServer } from '../support/server.js';

const dataDir = mkdtempSync(join(tmpdir(), 'memd-reembed-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

describe('changing the embedder of a data directory', () => {
  it('is refused at start with a clear message, and `memd reembed` converts the data', async () => {
    const first = await startServer({ dataDir });
    const memory = (await client(first.url).post('/v1/memories', { content: 'The lighthouse keeper feeds the gulls at dawn.' })).body.memory;
    await first.stop();

    await expect(startServer({ dataDir, env: { MEMD_EMBEDDING_DIMENSIONS: '64' } })).rejects.toThrow(/hash\/feature-hash-v1 \(256 dimensions\).*\(64 dimensions\).*reembed/);

    const run = promisify(execFile);
    const { stdout } = await run(process.execPath, ['bin/memd.js', 'reembed'], {
      cwd: ROOT,
      env: { ...process.env, MEMD_DATA_DIR: dataDir, MEMD_EMBEDDING_PROVIDER: 'hash', MEMD_EMBEDDING_DIMENSIONS: '64' },
    });
    expect(stdout).toContain('done: 1 memories now use hash/feature-hash-v1 (64 dimensions)');

    const second = await startServer({ dataDir, env: { MEMD_EMBEDDING_DIMENSIONS: '64' } });
    try {
      expect((await client(second.url).get(`/v1/memories/${memory.id}`)).body.memory.content).toBe(memory.content);
      const [vector] = await second.app.services.embedder.embed(['The lighthouse keeper feeds the gulls at dawn.']);
      const found = await second.app.services.storage.memories.vectorSearch('_default', vector!, { k: 1 });
      expect(found[0]).toMatchObject({ id: memory.id, score: expect.closeTo(1, 5) });
    } finally {
      await second.stop();
    }
  }, 60_000);
});

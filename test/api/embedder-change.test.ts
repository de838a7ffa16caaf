import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { uploadDocument } from '../support/documents.js';
import { client, startServer } from '../support/server.js';

const dataDir = mkdtempSync(join(tmpdir(), 'memd-reembed-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

describe('changing the embedder of a data directory', () => {
  it('is refused at start with a clear message, and `memd reembed` converts the data', async () => {
    const first = await startServer({ dataDir });
    const memory = (
      await client(first.url).post('/v1/memories', { content: 'The lighthouse keeper feeds the gulls at dawn.' })
    ).body.memory;
    expect(
      (await uploadDocument(first.url, { name: 'ferry.txt', bytes: 'The ferry leaves the dock at nine.' })).status,
    ).toBe(202);
    await first.drainTasks();
    await first.stop();

    await expect(startServer({ dataDir, env: { MEMD_EMBEDDING_DIMENSIONS: '64' } })).rejects.toThrow(
      /hash\/feature-hash-v1 \(256 dimensions\).*\(64 dimensions\).*reembed/,
    );

    const run = promisify(execFile);
    const { stdout } = await run(process.execPath, ['bin/memd.js', 'reembed'], {
      cwd: ROOT,
      env: { ...process.env, ...first.storageEnv, MEMD_EMBEDDING_PROVIDER: 'hash', MEMD_EMBEDDING_DIMENSIONS: '64' },
    });
    // The memory, the document's chunk and the facts enrichment drew from them; and the page's one passage.
    expect(stdout).toMatch(/done: \d+ memories and 1 page passages now use hash\/feature-hash-v1 \(64 dimensions\)/);

    const second = await startServer({ dataDir, env: { MEMD_EMBEDDING_DIMENSIONS: '64' } });
    try {
      expect((await client(second.url).get(`/v1/memories/${memory.id}`)).body.memory.content).toBe(memory.content);
      const [vector] = await second.app.services.embedder.embed(['The lighthouse keeper feeds the gulls at dawn.']);
      const found = await second.app.services.storage.memories.vectorSearch('_default', vector!, { k: 1 });
      expect(found[0]).toMatchObject({ id: memory.id, score: expect.closeTo(1, 5) });
      const pages = await client(second.url).post('/v1/documents/search', {
        query: 'The ferry leaves the dock at nine.',
      });
      expect(pages.status).toBe(200);
      expect(pages.body.pages[0]).toMatchObject({
        passage: { text: 'The ferry leaves the dock at nine.' },
        relevance_score: expect.closeTo(1, 5),
      });
    } finally {
      await second.stop();
    }
  }, 60_000);
});

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { client, startServer } from '../support/server.js';

const dataDir = mkdtempSync(join(tmpdir(), 'memd-cli-reembed-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const CONTENT = 'The lighthouse keeper feeds the gulls at dawn.';
const local = ['--data-dir', dataDir];
const hash = { MEMD_EMBEDDING_PROVIDER: 'hash' };

/** How close the stored vector of `id` is to its content embedded now (1: made by this embedder from this content). */
async function vectorScore(workspaceId: string, id: string): Promise<number | undefined> {
  const server = await startServer({ dataDir });
  try {
    const [vector] = await server.app.services.embedder.embed([CONTENT]);
    const hits = await server.app.services.storage.memories.vectorSearch(workspaceId, vector!, { k: 5 });
    return hits.find((hit) => hit.id === id)?.score;
  } finally {
    await server.stop();
  }
}

describe('memd reembed --workspace', () => {
  it('re-embeds one workspace with the unchanged embedder, and is refused beside a server, for a changed embedder or an unknown workspace', async () => {
    const server = await startServer({ dataDir });
    let id: string;
    try {
      const api = client(server.url);
      await api.post('/v1/workspaces', { id: 'damaged', name: 'Damaged' });
      // An import that brings its own vector keeps it: here a wrong one, as from a foreign or broken export.
      const wrong = Array.from({ length: 256 }, (_, i) => (i === 0 ? 1 : 0));
      const line = JSON.stringify({ type: 'memory', data: { content: CONTENT, embedding: wrong } });
      expect(
        (await api.raw('POST', '/v1/workspaces/damaged/import', line, { 'content-type': 'application/x-ndjson' })).body,
      ).toMatchObject({ imported: 1 });
      id = (await api.get('/v1/memories?workspace_id=damaged')).body.memories[0].id;

      const beside = await runCli(['reembed', '-w', 'damaged', ...local], { env: hash });
      expect(beside.code).toBe(1);
      expect(beside.stderr).toBe(
        `memd: ${join(dataDir, 'memd.sqlite')} is in use by another memd process: a SQLite data directory belongs to one server (run several nodes on PostgreSQL)\n`,
      );
    } finally {
      await server.stop();
    }
    expect(await vectorScore('damaged', id)).toBeLessThan(0.9);

    const repaired = await runCli(['reembed', '-w', 'damaged', ...local], { env: hash });
    expect(repaired.code, repaired.stderr).toBe(0);
    expect(repaired.stdout).toBe('done: 1 memories of damaged now use hash/feature-hash-v1 (256 dimensions)\n');
    expect(await vectorScore('damaged', id)).toBeCloseTo(1, 5);

    const changed = await runCli(['reembed', '-w', 'damaged', ...local], {
      env: { ...hash, MEMD_EMBEDDING_DIMENSIONS: '64' },
    });
    expect(changed).toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/\(256 dimensions\).*\(64 dimensions\): every workspace must be re-embedded/),
    });
    const unknown = await runCli(['reembed', '-w', 'nowhere', ...local], { env: hash });
    expect(unknown).toMatchObject({ code: 1, stderr: "memd: workspace 'nowhere' was not found\n" });
  }, 120_000);
});

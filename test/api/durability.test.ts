import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { allMemories, factsPerMemory } from '../support/facts.js';
import { spawnServer } from '../support/process.js';
import { client } from '../support/server.js';

const dataDir = mkdtempSync(join(tmpdir(), 'memd-crash-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** Two sentences over 80 characters: each memory queues enrichment that derives exactly two facts. */
const content = (n: number) =>
  `Crash test memory number ${n} records a delivery to warehouse ${n % 17}. The parcel weighed ${n} grams and arrived on time.`;

describe('durability', () => {
  it('a SIGKILL loses no acknowledged write and no queued task', async () => {
    const first = await spawnServer({ MEMD_DATA_DIR: dataDir });
    const api = client(first.url);
    const acknowledged: string[] = [];
    let n = 0;
    let killed = false;
    // Two writers keep batches in flight; the kill lands while requests are open.
    const writer = async () => {
      while (!killed) {
        const operations = Array.from({ length: 25 }, () => ({ op: 'create', content: content(n++) }));
        try {
          const res = await api.post('/v1/memories/batch', { operations });
          if (res.status === 200) for (const r of res.body.results) acknowledged.push(r.memory_id);
        } catch {
          return; // the connection died with the server
        }
      }
    };
    const writers = [writer(), writer()];
    while (acknowledged.length < 300) await sleep(20);
    killed = true;
    first.child.kill('SIGKILL');
    expect(await first.exited).toBe('SIGKILL');
    await Promise.all(writers);

    const second = await spawnServer({ MEMD_DATA_DIR: dataDir });
    try {
      const again = client(second.url);
      for (const id of acknowledged) expect((await again.get(`/v1/memories/${id}`)).status, id).toBe(200);
      // The queue survives too: every acknowledged memory ends up with its two facts, none twice.
      let perParent = factsPerMemory(await allMemories(again));
      for (let i = 0; i < 300 && acknowledged.some((id) => perParent.get(id) !== 2); i++) {
        await sleep(200);
        perParent = factsPerMemory(await allMemories(again));
      }
      for (const id of acknowledged) expect(perParent.get(id), id).toBe(2);
    } finally {
      second.child.kill('SIGTERM');
      expect(await second.exited).toBe(0);
    }
  }, 120_000);
});

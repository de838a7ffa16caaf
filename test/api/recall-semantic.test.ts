import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MemdClient } from '../../packages/client/src/index.js';
import { memdClient, startServer, type TestServer } from '../support/server.js';

// The real default embedder (Universal Sentence Encoder lite, offline): only a semantic model can match a paraphrase.
let server: TestServer;
let memd: MemdClient;

beforeAll(async () => {
  server = await startServer({ env: { MEMD_EMBEDDING_PROVIDER: 'local', MEMD_EMBEDDING_WORKERS: '1' } });
  memd = memdClient(server.url);
});
afterAll(() => server.stop());

const MEMORIES = [
  'The quarterly revenue report is due to the board on Friday.',
  'Our cat knocked the vase off the kitchen table again.',
  'The Kubernetes cluster was upgraded to the latest minor version.',
  'Priya is allergic to peanuts, so order the lunch without nuts.',
  'The office Wi-Fi password changes every first Monday of the month.',
  'We hiked up the mountain trail and camped by the lake overnight.',
  'The invoice from the printing vendor was paid twice by mistake.',
  'Jonas prefers to get feedback in writing rather than in meetings.',
  'The flight to Tokyo leaves at 7 am from terminal 2.',
  'Remember to water the tomato plants on the balcony daily.',
];

describe('POST /v1/memories/recall with the default embedder', () => {
  it('finds a paraphrase that shares almost no words with its memory in the top 3', async () => {
    const stored = new Map<string, string>();
    for (const content of MEMORIES) stored.set(content, (await memd.memories.create({ content })).memory.id);
    const cases: Array<[string, string]> = [
      ['Which food can one of our colleagues not eat because of an allergy?', MEMORIES[3]!],
      ['Did anyone go camping outdoors?', MEMORIES[5]!],
      ['We accidentally settled a bill two times', MEMORIES[6]!],
    ];
    for (const [question, expected] of cases) {
      const top3 = (await memd.memories.recall({ query: question })).memories.slice(0, 3).map((m) => m.id);
      expect(top3, question).toContain(stored.get(expected));
    }
  });
});

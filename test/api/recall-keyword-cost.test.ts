import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_SCORED_MATCHES } from '../../src/core/recall/arms.js';
import { BATCH_MAX_OPERATIONS } from '../../src/http/schemas/batch.js';
import { client, startServer, type Client, type TestServer } from '../support/server.js';

let server: TestServer;
let api: Client;

beforeAll(async () => {
  server = await startServer();
  api = client(server.url);
});
afterAll(() => server.stop());

async function rememberAll(workspace_id: string, contents: string[]): Promise<void> {
  for (let i = 0; i < contents.length; i += BATCH_MAX_OPERATIONS) {
    const operations = contents.slice(i, i + BATCH_MAX_OPERATIONS).map((content) => ({ op: 'create', content }));
    const res = await api.post('/v1/memories/batch', { workspace_id, operations });
    expect(res.body.failed, JSON.stringify(res.body)).toBe(0);
  }
}

describe('recall: keyword search when every query word is common', () => {
  it('requires the words together, in any order, when every word and phrase is too common to score', async () => {
    const ws = (await api.post('/v1/workspaces', { name: 'common words', settings: { deduplication: false } })).body.workspace.id as string;
    const common = MAX_SCORED_MATCHES + 10;
    await rememberAll(ws, [
      ...Array.from({ length: common }, (_, i) => `Alpha beta item ${i}.`),
      ...Array.from({ length: common }, (_, i) => `Gamma reading ${i}.`),
      'Alpha beta and gamma notes were filed.',
      'Gamma rays hit the beta, then the alpha sensor.',
    ]);
    const res = await api.post('/v1/memories/recall', { workspace_id: ws, query: 'alpha beta gamma', limit: 10 });
    expect(res.status).toBe(200);
    const byKeyword = (res.body.memories as Array<{ content: string; match_signals: string[] }>)
      .filter((m) => m.match_signals.includes('keyword'))
      .map((m) => m.content)
      .sort();
    // "alpha", "beta", "gamma" and the phrase "alpha beta" each match too many memories; all three words together
    // match two, whether or not "alpha beta" is written as a phrase.
    expect(byKeyword).toEqual(['Alpha beta and gamma notes were filed.', 'Gamma rays hit the beta, then the alpha sensor.']);
  });
});

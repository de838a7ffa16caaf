import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeOpenAI, type FakeLlmServer } from '../support/fake-llm-server.js';
import type { MemdClient } from '../../packages/client/src/index.js';
import { providerFor } from '../providers/llm/setup.js';
import { memdClient, startServer, type TestServer } from '../support/server.js';

let fake: FakeLlmServer;
let server: TestServer;
let memd: MemdClient;

beforeAll(async () => {
  fake = await startFakeOpenAI();
  server = await startServer({
    env: {
      MEMD_LLM_PROVIDER: 'openai',
      MEMD_LLM_BASE_URL: fake.baseUrl,
      MEMD_LLM_MODEL: 'test-model',
      MEMD_RECALL_RERANKER: 'llm',
    },
    llm: providerFor({ baseUrl: fake.baseUrl, maxRetries: 0 }),
  });
  memd = memdClient(server.url);
});
afterAll(async () => {
  await server.stop();
  await fake.close();
});
beforeEach(() => {
  fake.requests.length = 0;
});

const userPrompt = (i: number) => fake.requests[i]!.messages.at(-1)!.content;

describe('recall with a language model configured', () => {
  it('rewrites the query with the recent conversation and reports the rewrite', async () => {
    await memd.workspaces.create({ id: 'rewrite', name: 'rewrite' });
    const target = (
      await memd.memories.create({
        workspace_id: 'rewrite',
        content: 'The Helios dashboard loads slowly because of an unindexed query.',
      })
    ).memory;
    fake.script(JSON.stringify({ query: 'Why is the Helios dashboard slow?' }));
    const res = await memd.memories.recall({
      workspace_id: 'rewrite',
      query: 'why is it slow?',
      rag_threshold: 0,
      context: [
        { role: 'user', content: 'Can you look at the Helios dashboard?' },
        { role: 'assistant', content: 'Sure, what about it?' },
      ],
    });
    expect(res.query_rewritten).toBe('Why is the Helios dashboard slow?');
    expect(res.memories[0]!.id).toBe(target.id);
    expect(userPrompt(0)).toContain('Can you look at the Helios dashboard?');
    expect(userPrompt(0)).toContain('why is it slow?');
    expect(fake.requests).toHaveLength(1);
  });

  it('reranks uncertain results with the model (mode_used hybrid)', async () => {
    await memd.workspaces.create({ id: 'rerank', name: 'rerank' });
    const first = (
      await memd.memories.create({ workspace_id: 'rerank', content: 'Garden party planning: order chairs and a tent.' })
    ).memory;
    const second = (
      await memd.memories.create({ workspace_id: 'rerank', content: 'Garden party guests: invite the neighbours too.' })
    ).memory;
    // The best relevance is 0.5 (half the query's words): under a threshold of 0.9 the model reranks, under 0 it does not.
    const query = 'garden party menu ideas';
    const plain = await memd.memories.recall({ workspace_id: 'rerank', query, rag_threshold: 0 });
    expect(plain.mode_used).toBe('rag');
    expect(fake.requests).toHaveLength(0);
    const order = plain.memories.map((m) => m.id);
    expect(order.slice(0, 2).sort()).toEqual([first.id, second.id].sort());
    fake.script(JSON.stringify({ ranking: [2, 1] }));
    const reranked = await memd.memories.recall({ workspace_id: 'rerank', query, rag_threshold: 0.9 });
    expect(reranked.mode_used).toBe('hybrid');
    expect(reranked.memories.map((m) => m.id).slice(0, 2)).toEqual([order[1], order[0]]);
    expect(reranked.memories[0]!.match_signals).toContain('rerank');
    expect(userPrompt(0)).toContain('Garden party planning');
  });

  it('keeps recall working when the model fails (no rewrite, no rerank)', async () => {
    await memd.workspaces.create({ id: 'failing', name: 'failing' });
    const target = (
      await memd.memories.create({
        workspace_id: 'failing',
        content: 'Server room temperature alarm triggers above 28 degrees.',
      })
    ).memory;
    fake.script({ status: 500, message: 'down' }, { status: 500, message: 'down' });
    const res = await memd.memories.recall({
      workspace_id: 'failing',
      query: 'server room temperature alarm',
      rag_threshold: 1,
      context: [{ role: 'user', content: 'about the server room' }],
    });
    expect(res).toMatchObject({ query_rewritten: null, mode_used: 'rag' });
    expect(res.memories[0]!.id).toBe(target.id);
  });
});

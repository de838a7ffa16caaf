import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MemdClient } from '../../packages/client/src/index.js';
import { seedTopics } from '../support/knowledgebase.js';
import { startFakeOpenAI, type FakeLlmServer, type RecordedRequest } from '../support/fake-llm-server.js';
import { client, memdClient, startServer, type Client, type TestServer } from '../support/server.js';

let fake: FakeLlmServer;
let server: TestServer;
let api: Client;
let memd: MemdClient;

const TITLES: Array<[RegExp, string]> = [
  [/PostgreSQL/, 'Database operations'],
  [/tomatoes/, 'Growing tomatoes'],
  [/sourdough/i, 'Sourdough baking'],
];

/** Writes an article about whatever the prompt's memories are about, citing the first of them. */
function writeArticle(request: RecordedRequest): string {
  const prompt = request.messages.at(-1)!.content;
  const title = TITLES.find(([pattern]) => pattern.test(prompt))?.[1] ?? 'Something else';
  const firstId = /\[(mem_[0-9a-f]{16})\]/.exec(prompt)?.[1];
  return JSON.stringify({
    title,
    summary: `What the agent knows about ${title.toLowerCase()}.`,
    sections: [
      { heading: 'Overview', content: `The main point [${firstId}].` },
      { heading: 'Details', content: '- one\n- two' },
    ],
  });
}

beforeAll(async () => {
  fake = await startFakeOpenAI({ respond: writeArticle });
  server = await startServer({
    env: {
      MEMD_LLM_PROVIDER: 'openai',
      MEMD_LLM_BASE_URL: fake.baseUrl,
      MEMD_LLM_MODEL: 'kb-writer',
      MEMD_LLM_MAX_RETRIES: '0',
    },
  });
  api = client(server.url);
  memd = memdClient(server.url);
});
afterAll(async () => {
  await server.stop();
  await fake.close();
});

describe('knowledgebase generation with a language model', () => {
  it('has the model write each topic from its memories, citing them, and names the article after its title', async () => {
    const seed = await seedTopics(memd, 'kb-llm');
    const before = fake.requests.length;
    const report = (await api.post('/v1/knowledgebase/generate', { workspace_id: seed.ws })).body;
    expect(report).toMatchObject({ generator: 'llm', community_count: 3 });
    expect(report.changes.created.sort()).toEqual([
      'topics/database-operations',
      'topics/growing-tomatoes',
      'topics/sourdough-baking',
    ]);
    const calls = fake.requests.slice(before);
    expect(calls).toHaveLength(3);
    const dbPrompt = calls.find((c) => c.messages.at(-1)!.content.includes('PostgreSQL'))!;
    expect(dbPrompt.model).toBe('kb-writer');
    expect(dbPrompt.messages[0]).toMatchObject({ role: 'system', content: expect.stringContaining('knowledgebase') });
    for (const id of seed.db) expect(dbPrompt.messages.at(-1)!.content).toContain(`[${id}]`);

    const article = (await api.get(`/v1/knowledgebase/articles/topics/database-operations?workspace_id=${seed.ws}`))
      .body;
    expect(article).toMatchObject({
      title: 'Database operations',
      summary: 'What the agent knows about database operations.',
      generator: 'llm',
    });
    expect(article.content).toMatch(/^# Database operations\n\nWhat the agent knows/);
    expect(article.content).toContain('## Overview');
    expect(article.content).toContain('## Sources');
    for (const id of seed.db) expect(article.content).toContain(`(/v1/memories/${id})`);

    // Nothing changed: no model call at all.
    const calm = fake.requests.length;
    expect(
      (await api.post('/v1/knowledgebase/generate', { workspace_id: seed.ws })).body.changes.unchanged,
    ).toHaveLength(3);
    expect(fake.requests.length).toBe(calm);
  });

  it('falls back to an extractive article when the model gives no usable answer', async () => {
    const seed = await seedTopics(memd, 'kb-llm-fallback');
    // The largest topic (databases) is written first: its answer and the corrective retry are both unusable.
    fake.script('I would rather write a poem.', 'Still no JSON, sorry.');
    const report = (await api.post('/v1/knowledgebase/generate', { workspace_id: seed.ws })).body;
    expect(report.community_count).toBe(3);
    const articles = (await api.get(`/v1/knowledgebase/articles?workspace_id=${seed.ws}&article_type=topic`)).body
      .articles;
    const db = articles.find((a: { memory_ids: string[] }) => a.memory_ids.includes(seed.db[0]!));
    expect(db).toMatchObject({ generator: 'extractive', title: expect.stringContaining('PostgreSQL') });
    expect(articles.filter((a: { generator: string }) => a.generator === 'llm')).toHaveLength(2);
  });
});

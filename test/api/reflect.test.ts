import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeOpenAI, type FakeLlmServer, type RecordedRequest } from '../support/fake-llm-server.js';
import { ServerError, type MemdClient } from '../../packages/client/src/index.js';
import { providerFor } from '../providers/llm/setup.js';
import { client, failureOf, memdClient, startServer, type TestServer } from '../support/server.js';

let fake: FakeLlmServer;
let withLlm: TestServer;
let withoutLlm: TestServer;
let memd: MemdClient;
let plain: MemdClient;

beforeAll(async () => {
  fake = await startFakeOpenAI();
  withLlm = await startServer({ llm: providerFor({ baseUrl: fake.baseUrl, maxRetries: 1 }) });
  withoutLlm = await startServer();
  memd = memdClient(withLlm.url);
  plain = memdClient(withoutLlm.url);
});
afterAll(async () => {
  await withLlm.stop();
  await withoutLlm.stop();
  await fake.close();
});
beforeEach(() => {
  fake.requests.length = 0;
});

const MEMORIES = [
  { content: 'The Lisbon offsite is planned for the second week of May.', tags: ['offsite'] },
  { content: 'Budget for the Lisbon offsite was approved at 40,000 euros.', tags: ['offsite', 'budget'] },
  { content: 'Printer toner ran out again.', tags: ['office'] },
];

const seed = async (c: MemdClient, workspace_id: string) => {
  await c.workspaces.create({ id: workspace_id, name: workspace_id });
  const ids: string[] = [];
  for (const m of MEMORIES) ids.push((await c.memories.create({ workspace_id, ...m })).memory.id);
  return ids;
};

/** Two statements of where Ana works, the second later, recorded as a contradiction by the scan's attribute pass. */
const contradicting = async (c: MemdClient, workspace_id: string) => {
  await c.workspaces.create({ id: workspace_id, name: workspace_id });
  const earlier = (
    await c.memories.create({ workspace_id, content: 'Ana works at Google in the office by the station' })
  ).memory;
  await new Promise((resolve) => setTimeout(resolve, 20)); // the later one is later
  const later = (await c.memories.create({ workspace_id, content: 'Ana joined Microsoft last spring' })).memory;
  const scan = await c.contradictions.scan(workspace_id);
  expect(scan.contradictions_found).toBe(1);
  return { earlier, later };
};

/** Answers like a model that read the numbered memories: cites those mentioning the offsite. */
function citingModel(request: RecordedRequest): string {
  const prompt = request.messages.at(-1)!.content;
  const cited = [...prompt.matchAll(/^\[(\d+)\] .*offsite/gm)].map((m) => Number(m[1]));
  return JSON.stringify({
    reflection: 'The Lisbon offsite is in the second week of May, with a budget of 40,000 euros.',
    sources: cited,
    confidence: 0.85,
  });
}

describe('POST /v1/memories/reflect with a language model', () => {
  it('builds the prompt from the recalled memories and returns the answer with its sources', async () => {
    const ids = await seed(memd, 'reflect-llm');
    fake.script(citingModel);
    const res = await memd.memories.reflect({
      workspace_id: 'reflect-llm',
      query: 'When is the Lisbon offsite and what is its budget?',
    });
    expect(res).toMatchObject({
      reflection: 'The Lisbon offsite is in the second week of May, with a budget of 40,000 euros.',
      confidence: 0.85,
      synthesis: 'llm',
    });
    expect([...res.source_memories].sort()).toEqual([ids[0], ids[1]].sort());
    expect(res.tokens_processed).toBeGreaterThan(0);
    const [request] = fake.requests;
    const prompt = request!.messages.map((m) => m.content).join('\n');
    expect(prompt).toContain(MEMORIES[0]!.content);
    expect(prompt).toContain(MEMORIES[1]!.content);
    expect(prompt).toContain('When is the Lisbon offsite and what is its budget?');
    expect(request!.messages[0]!.role).toBe('system');
  });

  it('tells the model which memory a later one contradicts', async () => {
    const { earlier, later } = await contradicting(memd, 'reflect-llm-ctr');
    fake.script(() => JSON.stringify({ reflection: 'Ana works at Microsoft.', sources: [1], confidence: 0.8 }));
    await memd.memories.reflect({ workspace_id: 'reflect-llm-ctr', query: 'Where does Ana work?' });
    // Contradiction detection asked the model too (its judge): the reflection's request is the last.
    const [system, user] = fake.requests.at(-1)!.messages.map((m) => m.content);
    expect(system).toContain('said otherwise later');
    const lines = user!.split('\n');
    expect(lines.find((line) => line.includes(earlier.content))).toContain('said otherwise later');
    expect(lines.find((line) => line.includes(later.content))).not.toContain('said otherwise later');
  });

  it('applies the filters to what the prompt carries, and leaves sources out when asked', async () => {
    await seed(memd, 'reflect-filters');
    fake.script(citingModel);
    const res = await memd.memories.reflect({
      workspace_id: 'reflect-filters',
      query: 'Lisbon offsite budget',
      tags: ['budget'],
      include_sources: false,
    });
    expect(res.source_memories).toEqual([]);
    const prompt = fake.requests[0]!.messages.at(-1)!.content;
    expect(prompt).toContain(MEMORIES[1]!.content);
    expect(prompt).not.toContain(MEMORIES[0]!.content);
  });

  it('names every memory of the prompt as a source when the model cites none, and says so', async () => {
    const ids = await seed(memd, 'reflect-uncited');
    fake.script(() => JSON.stringify({ reflection: 'The offsite is in May.', sources: [], confidence: 0.6 }));
    const res = await memd.memories.reflect({ workspace_id: 'reflect-uncited', query: 'When is the Lisbon offsite?' });
    const prompt = fake.requests[0]!.messages.at(-1)!.content;
    const given = ids.filter((_, i) => prompt.includes(MEMORIES[i]!.content));
    expect(given.length).toBeGreaterThan(0);
    expect([...res.source_memories].sort()).toEqual([...given].sort());
    expect(res.metadata).toEqual({ sources: 'all_given' });

    fake.script(citingModel);
    const cited = await memd.memories.reflect({
      workspace_id: 'reflect-uncited',
      query: 'When is the Lisbon offsite?',
    });
    expect(cited.metadata).toEqual({ sources: 'cited' });
  });

  it('does not ask the model when no memory is relevant', async () => {
    await seed(memd, 'reflect-nothing');
    const res = await memd.memories.reflect({
      workspace_id: 'reflect-nothing',
      query: 'quantum chromodynamics lecture notes',
    });
    expect(res).toMatchObject({ source_memories: [], confidence: 0, metadata: { sources: 'none' } });
    expect(res.reflection).toMatch(/no stored memories/i);
    expect(fake.requests).toHaveLength(0);
  });

  it('turns a failing provider into a 502 JSON error', async () => {
    await seed(memd, 'reflect-failing');
    fake.script({ status: 500, message: 'model crashed' }, { status: 500, message: 'model crashed again' });
    const failure = await failureOf(
      memd.memories.reflect({ workspace_id: 'reflect-failing', query: 'When is the Lisbon offsite?' }),
    );
    expect(failure).toBeInstanceOf(ServerError);
    expect(failure).toMatchObject({ status: 502, code: 'provider_error', body: { statusCode: 502 } });
    expect(failure.message).toMatch(/500/);
  });

  it('rejects an out-of-range depth with 422', async () => {
    for (const depth of [0, 6, 2.5])
      expect((await failureOf(memd.memories.reflect({ query: 'x', depth }))).status).toBe(422);
    // A value the client's types refuse goes untyped.
    expect((await client(withLlm.url).post('/v1/memories/reflect', { query: 'x', detail_level: 'tiny' })).status).toBe(
      422,
    );
  });
});

describe('POST /v1/memories/reflect without a language model', () => {
  it('says of a quoted memory that a later one contradicts it', async () => {
    const { earlier, later } = await contradicting(plain, 'reflect-plain-ctr');
    const res = await plain.memories.reflect({ workspace_id: 'reflect-plain-ctr', query: 'Where does Ana work?' });
    const lines = res.reflection.split('\n');
    expect(lines.find((line) => line.includes(earlier.id))).toContain('said otherwise later');
    expect(lines.find((line) => line.includes(later.id))).not.toContain('said otherwise later');
  });

  it('returns an extractive synthesis that says so, with its sources', async () => {
    const ids = await seed(plain, 'reflect-plain');
    const res = await plain.memories.reflect({
      workspace_id: 'reflect-plain',
      query: 'What is the budget of the Lisbon offsite?',
    });
    expect(res.synthesis).toBe('extractive');
    expect(res.reflection).toMatch(/extractive/i);
    expect(res.reflection).toMatch(/no language model is configured/i);
    expect(res.reflection).toContain('Budget for the Lisbon offsite was approved at 40,000 euros.');
    expect(res.source_memories[0]).toBe(ids[1]);
    expect(res.source_memories).not.toContain(ids[2]);
    expect(res.confidence).toBeGreaterThan(0);
    expect(res.confidence).toBeLessThanOrEqual(1);
  });
});

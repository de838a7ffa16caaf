import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAI, type FakeLlmServer, type RecordedRequest } from '../support/fake-llm-server.js';
import { GoneError, NotFoundError, type MemdClient } from '../../packages/client/src/index.js';
import { providerFor } from '../providers/llm/setup.js';
import {
  ManualClock,
  client,
  failureOf,
  memdClient,
  startServer,
  type Client,
  type TestServer,
} from '../support/server.js';

let server: TestServer;
let memd: MemdClient;
/** For bodies the client's types refuse. */
let api: Client;
const clock = new ManualClock();

beforeAll(async () => {
  server = await startServer({ clock });
  memd = memdClient(server.url);
  api = client(server.url);
});
afterAll(() => server.stop());

/** Entries the rules score clearly apart: 0.85, 0.8, 0.65 above the default threshold; 0.3 and 0.2 below. */
const WORKING_MEMORY = {
  editor_preference: 'I always prefer dark mode in the editor',
  user_name: 'Ana',
  deadline: 'The launch deadline is June 10',
  current_step: 'currently refactoring the auth module',
  scratch: 'ok',
};

async function session(workspace: string, workingMemory: Record<string, unknown> = WORKING_MEMORY) {
  return (await memd.sessions.start({ workspace_id: workspace, working_memory: workingMemory, user_id: 'u-1' })).session
    .id;
}

const memoriesOf = async (workspace: string, filters: { session_id?: string } = {}) =>
  (await memd.memories.list({ workspace_id: workspace, limit: 100, ...filters })).memories;

describe('session commit', () => {
  it('stores the entries above min_importance, categorised, with the session id, through the write pipeline', async () => {
    const id = await session('commit-ws');
    const asked = performance.now();
    const strict = await memd.sessions.commit(id, { min_importance: 0.75 });
    const roundTrip = performance.now() - asked;
    expect(strict).toMatchObject({
      session_id: id,
      memories_extracted: 2,
      memories_deduplicated: 0,
      memories_created: 2,
      breakdown: { preferences: 1, profile: 1 },
    });
    // Whole milliseconds the server spent, no more than the client waited for the answer.
    expect(Number.isInteger(strict.extraction_time_ms)).toBe(true);
    expect(strict.extraction_time_ms).toBeGreaterThanOrEqual(0);
    expect(strict.extraction_time_ms).toBeLessThanOrEqual(Math.ceil(roundTrip));

    const stored = await memoriesOf('commit-ws', { session_id: id });
    expect(stored.map((m) => m.content).sort()).toEqual(['I always prefer dark mode in the editor', 'user name: Ana']);
    const preference = stored.find((m) => m.content.startsWith('I always'))!;
    expect(preference).toMatchObject({
      session_id: id,
      user_id: 'u-1',
      subtype: 'preference',
      importance: 0.85,
      metadata: { source: 'session_commit', category: 'preferences', working_memory_key: 'editor_preference' },
    });

    // The default threshold adds the deadline; what this session already committed is not written again.
    const relaxed = await memd.sessions.commit(id);
    expect(relaxed).toMatchObject({
      memories_extracted: 3,
      memories_deduplicated: 2,
      memories_created: 1,
      breakdown: { events: 1 },
    });
    const again = await memd.sessions.commit(id, {});
    expect(again).toMatchObject({
      memories_extracted: 3,
      memories_deduplicated: 3,
      memories_created: 0,
      breakdown: {},
    });
    expect(await memoriesOf('commit-ws', { session_id: id })).toHaveLength(3);

    // A changed entry is a new version: committed again.
    await memd.sessions.workingMemory.set(id, { key: 'user_name', value: 'Beatriz' });
    expect(await memd.sessions.commit(id)).toMatchObject({ memories_created: 1, breakdown: { profile: 1 } });
  });

  it('filters by category and caps the number, most important first', async () => {
    const filtered = await memd.sessions.commit(await session('commit-cat'), { categories: ['profile', 'events'] });
    expect(filtered).toMatchObject({
      memories_extracted: 2,
      memories_created: 2,
      breakdown: { profile: 1, events: 1 },
    });
    const capped = await memd.sessions.commit(await session('commit-cap'), { max_memories: 1, min_importance: 0 });
    expect(capped).toMatchObject({ memories_extracted: 1, memories_created: 1, breakdown: { preferences: 1 } });
    const everything = await memd.sessions.commit(await session('commit-all'), { min_importance: 0, categories: null });
    expect(everything.memories_created).toBe(5);
  });

  it('honours an entry’s own importance and category', async () => {
    const id = await session('commit-explicit', {
      allergy: { content: 'Ana is allergic to peanuts', importance: 0.95, category: 'profile' },
      note: { text: 'minor', importance: 0.1 },
    });
    const result = await memd.sessions.commit(id);
    expect(result).toMatchObject({ memories_extracted: 1, memories_created: 1, breakdown: { profile: 1 } });
    expect((await memoriesOf('commit-explicit'))[0]).toMatchObject({
      content: 'Ana is allergic to peanuts',
      importance: 0.95,
      subtype: 'profile',
    });
  });

  it('says a bare value or a list with its key, in words, and a sentence as it is', async () => {
    const id = await session('commit-values', {
      destination: 'Kyoto, 3-10 April',
      next_steps: ['renew passport', 'buy JR pass'],
      hotel: { name: 'Hotel Kanra', nights: 7, rooms: ['412', '413'] },
      plan: 'Kim wants a ryokan for one night',
    });
    await memd.sessions.commit(id, { min_importance: 0 });
    expect((await memoriesOf('commit-values')).map((m) => m.content).sort()).toEqual([
      'Kim wants a ryokan for one night',
      'destination: Kyoto, 3-10 April',
      'hotel: name Hotel Kanra; nights 7; rooms 412, 413',
      'next steps: renew passport, buy JR pass',
    ]);
    // Found by what the key says.
    const answer = await memd.memories.recall({ workspace_id: 'commit-values', query: 'destination', limit: 1 });
    expect(answer.memories[0]?.content).toBe('destination: Kyoto, 3-10 April');
  });

  it('deduplicates against long-term memory unless told not to', async () => {
    // The session's user's own memories: another user's (or no user's) same text is theirs, not a duplicate
    // (memories.test.ts).
    const seed = async (workspace: string) => {
      await memd.workspaces.create({ id: workspace, name: workspace });
      for (const content of ['I always prefer dark mode in the editor', 'The launch deadline is June 10.'])
        await memd.memories.create({ workspace_id: workspace, content, user_id: 'u-1' });
    };
    await seed('commit-dedup');
    const deduped = await memd.sessions.commit(await session('commit-dedup'));
    // Exact text: skipped; the same words with other punctuation: the existing memory is updated, not duplicated.
    expect(deduped).toMatchObject({
      memories_extracted: 3,
      memories_deduplicated: 2,
      memories_created: 1,
      breakdown: { profile: 1 },
    });
    expect((await memoriesOf('commit-dedup')).map((m) => m.content).sort()).toEqual([
      'I always prefer dark mode in the editor',
      'The launch deadline is June 10',
      'user name: Ana',
    ]);

    await seed('commit-nodedup');
    const undeduped = await memd.sessions.commit(await session('commit-nodedup'), { deduplicate: false });
    // Without the similarity check only identical text is recognised.
    expect(undeduped).toMatchObject({
      memories_extracted: 3,
      memories_deduplicated: 1,
      memories_created: 2,
      breakdown: { events: 1, profile: 1 },
    });
    expect(await memoriesOf('commit-nodedup')).toHaveLength(4);
  });

  it('answers bad input with a 4xx and changes nothing', async () => {
    const id = await session('commit-bad');
    for (const body of [
      { min_importance: 1.5 },
      { min_importance: '0.5' },
      { max_memories: 0 },
      { max_memories: 501 },
      { categories: ['bogus'] },
      { categories: [] },
      { deduplicate: 'yes' },
      { extra: 1 },
    ]) {
      expect((await api.post(`/v1/sessions/${id}/commit`, body)).status, JSON.stringify(body)).toBe(422);
    }
    expect(await failureOf(memd.sessions.commit('sess_unknown'))).toBeInstanceOf(NotFoundError);
    const short = (
      await memd.sessions.start({ workspace_id: 'commit-bad', ttl_seconds: 60, working_memory: WORKING_MEMORY })
    ).session.id;
    clock.advance(61_000);
    expect(await failureOf(memd.sessions.commit(short))).toBeInstanceOf(GoneError);
    expect(await memoriesOf('commit-bad')).toEqual([]);
  });
});

describe('session commit with a language model', () => {
  let fake: FakeLlmServer;
  let llmServer: TestServer;
  let llm: MemdClient;
  const isCommitPrompt = (req: RecordedRequest) =>
    req.messages[0]?.content.includes('working memory of an AI agent session') ?? false;

  beforeAll(async () => {
    fake = await startFakeOpenAI();
    llmServer = await startServer({ llm: providerFor({ baseUrl: fake.baseUrl, maxRetries: 0 }) });
    llm = memdClient(llmServer.url);
  });
  afterAll(async () => {
    await llmServer.stop();
    await fake.close();
  });

  it('uses the model’s scores, categories and wording, and falls back to rules when it fails', async () => {
    const id = (await llm.sessions.start({ workspace_id: 'llm-commit', working_memory: { lang: 'py', mood: 'tired' } }))
      .session.id;
    // The model takes its time to answer: the extraction's time must count it.
    let modelMs = 0;
    fake.script(async (req) => {
      const answering = performance.now();
      await sleep(100);
      modelMs = performance.now() - answering;
      expect(isCommitPrompt(req)).toBe(true);
      expect(req.messages.at(-1)!.content).toContain('lang: py\nmood: tired');
      const memories = [
        {
          ref: 'lang',
          content: 'The user writes Python for most projects.',
          category: 'preferences',
          importance: 0.8,
        },
        { ref: 'mood', content: 'The user felt tired.', category: 'events', importance: 0.2 },
        { ref: 'unknown-key', content: 'Invented.', category: 'profile', importance: 0.9 },
      ];
      return JSON.stringify({ memories });
    });
    const asked = performance.now();
    const result = await llm.sessions.commit(id);
    const roundTrip = performance.now() - asked;
    expect(result).toMatchObject({ memories_extracted: 1, memories_created: 1, breakdown: { preferences: 1 } });
    // Whole milliseconds, at least the time the model took, no more than the client waited for the answer.
    expect(Number.isInteger(result.extraction_time_ms)).toBe(true);
    expect(result.extraction_time_ms).toBeGreaterThanOrEqual(Math.floor(modelMs));
    expect(result.extraction_time_ms).toBeLessThanOrEqual(Math.ceil(roundTrip));
    const [memory] = (await llm.memories.list({ workspace_id: 'llm-commit' })).memories;
    expect(memory).toMatchObject({
      content: 'The user writes Python for most projects.',
      importance: 0.8,
      subtype: 'preference',
      metadata: { extraction_method: 'llm', working_memory_key: 'lang' },
    });

    const other = (
      await llm.sessions.start({
        workspace_id: 'llm-commit',
        working_memory: { editor_preference: 'I always prefer dark mode in the editor' },
      })
    ).session.id;
    fake.script({ status: 500 }, { status: 500 });
    const fallback = await llm.sessions.commit.withResponse(other);
    expect(fallback.status).toBe(200);
    expect(fallback.data).toMatchObject({ memories_created: 1, breakdown: { preferences: 1 } });
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAI, type FakeLlmServer, type RecordedRequest } from '../support/fake-llm-server.js';
import { ManualClock, client, startServer, type Client, type TestServer } from '../support/server.js';
import { providerFor } from '../providers/llm/setup.js';

type Json = Record<string, any>;

/** Writes the statements one second apart (so the first is the earlier one), then runs the write pipeline's background work. */
async function remember(
  server: TestServer,
  clock: ManualClock,
  workspace: string,
  ...contents: string[]
): Promise<Json[]> {
  const api = client(server.url);
  if ((await api.get(`/v1/workspaces/${workspace}`)).status === 404)
    await api.post('/v1/workspaces', { id: workspace, name: workspace });
  const memories: Json[] = [];
  for (const content of contents) {
    clock.advance(1_000);
    const created = await api.post('/v1/memories', { workspace_id: workspace, content });
    expect(created.body.action, content).toBe('created');
    memories.push(created.body.memory);
  }
  await server.drainTasks();
  return memories;
}

const open = async (api: Client, workspace: string): Promise<Json[]> =>
  (await api.get(`/v1/workspaces/${workspace}/contradictions?limit=100`)).body.contradictions;

describe('contradiction detection on write (semantic embedder)', () => {
  const clock = new ManualClock();
  let server: TestServer;
  let api: Client;

  beforeAll(async () => {
    // Detection thresholds are set for a semantic embedder; the hash test embedder does not see "moved to Berlin" near "live in Paris".
    server = await startServer({ clock, env: { MEMD_EMBEDDING_PROVIDER: 'local', MEMD_EMBEDDING_WORKERS: '1' } });
    api = client(server.url);
  });
  afterAll(() => server.stop());

  it('flags a changed residence, with its graph edge', async () => {
    const [paris, berlin] = await remember(server, clock, 'ctr-home', 'I live in Paris', 'I moved to Berlin');
    const found = await open(api, 'ctr-home');
    expect(found).toEqual([
      {
        id: expect.stringMatching(/^ctr_[0-9a-f]{16}$/),
        workspace_id: 'ctr-home',
        memory_a_id: paris!.id,
        memory_b_id: berlin!.id,
        contradiction_type: 'exclusive_value',
        confidence: expect.any(Number),
        detection_method: 'rules',
        explanation: 'residence: paris vs berlin',
        detected_at: clock.now().toISOString(),
        resolved_at: null,
        resolution: null,
        merged_memory_id: null,
      },
    ]);
    expect(found[0]!.confidence).toBeGreaterThan(0.6);
    const edges = (
      await api.get(
        `/v1/memories/${berlin!.id}/associations?direction=outgoing&relationships=contradicts&workspace_id=ctr-home`,
      )
    ).body.associations as Array<{ target_id: string; strength: number }>;
    expect(edges.map((e) => [e.target_id, e.strength])).toEqual([[paris!.id, found[0]!.confidence]]);
  });

  it('flags a changed date', async () => {
    const [may, june] = await remember(server, clock, 'ctr-dates', 'the deadline is May 3', 'the deadline is June 10');
    const [found] = await open(api, 'ctr-dates');
    expect(found).toMatchObject({
      memory_a_id: may!.id,
      memory_b_id: june!.id,
      contradiction_type: 'date_change',
      detection_method: 'rules',
    });
    expect(found!.explanation).toBe('the deadline: may 3 vs june 10');
  });

  it('flags a correction the later statement states, and recall answers with the correction first', async () => {
    const [tabs, spaces] = await remember(
      server,
      clock,
      'ctr-correction',
      'The user prefers tabs over spaces for indentation.',
      'The user switched to spaces for indentation after the style guide changed.',
    );
    expect(await open(api, 'ctr-correction')).toMatchObject([
      {
        memory_a_id: tabs!.id,
        memory_b_id: spaces!.id,
        contradiction_type: 'stated_change',
        detection_method: 'rules',
        explanation: 'the later statement says it changed ("switched")',
      },
    ]);
    const recalled = (
      await api.post('/v1/memories/recall', { workspace_id: 'ctr-correction', query: 'tabs or spaces?' })
    ).body.memories as Json[];
    expect(recalled.map((m) => m.id)).toEqual([spaces!.id, tabs!.id]);
    expect(recalled[1]!.match_signals).toContain('contradicted');
  });

  it("flags a role's new holder, and recall answers with the new one first", async () => {
    const [tomasz, ana] = await remember(
      server,
      clock,
      'ctr-role',
      'Tomasz is the on-call engineer this week and owns the alerting rules.',
      'Ana is the on-call engineer this week.',
    );
    expect(await open(api, 'ctr-role')).toMatchObject([
      { memory_a_id: tomasz!.id, memory_b_id: ana!.id, contradiction_type: 'exclusive_value' },
    ]);
    const recalled = (await api.post('/v1/memories/recall', { workspace_id: 'ctr-role', query: 'who is on call?' }))
      .body.memories as Json[];
    expect(recalled.map((m) => m.id)).toEqual([ana!.id, tomasz!.id]);
  });

  it('flags a failure a later statement says is over, and recall answers with the repair first', async () => {
    const [cannot, works] = await remember(
      server,
      clock,
      'ctr-repair',
      'Omar cannot log in since the password reset email never arrived.',
      'Omar received the password reset email after we whitelisted his domain; login works now.',
    );
    expect(await open(api, 'ctr-repair')).toMatchObject([
      { memory_a_id: cannot!.id, memory_b_id: works!.id, contradiction_type: 'stated_change' },
    ]);
    const recalled = (await api.post('/v1/memories/recall', { workspace_id: 'ctr-repair', query: 'can Omar log in?' }))
      .body.memories as Json[];
    expect(recalled.map((m) => m.id)).toEqual([works!.id, cannot!.id]);
  });

  it('raises no false alarm on paraphrases and related statements', async () => {
    await remember(
      server,
      clock,
      'ctr-calm',
      'I live in Paris',
      'Paris is where I live',
      'The weather in Paris is nice',
      'I lived in Lyon as a child',
      'My favourite food is pasta',
      // "now" of a moment, and a change word said first.
      'Right now I live in Paris with my sister',
      'I moved to Paris for the food and the museums',
      'I live in Paris for the food and the museums',
    );
    expect(await open(api, 'ctr-calm')).toEqual([]);
  });

  it('flags a state turned to its opposite, and not one opinion said twice nor a negation of another thing', async () => {
    const [open_, closed] = await remember(
      server,
      clock,
      'ctr-states',
      'The office is open on Sunday.',
      'The office is closed on Sunday.',
    );
    expect(await open(api, 'ctr-states')).toMatchObject([
      {
        memory_a_id: open_!.id,
        memory_b_id: closed!.id,
        contradiction_type: 'negation',
        explanation: 'open vs closed',
      },
    ]);
    await remember(
      server,
      clock,
      'ctr-agree',
      'Maya hates jazz.',
      "Maya doesn't like jazz.",
      'Sam is allergic to peanuts.',
      'Sam is not allergic to shellfish.',
    );
    expect(await open(api, 'ctr-agree')).toEqual([]);
  });

  it('pairs no two users speaking of themselves, nor notes of two subjects, but two users on one thing', async () => {
    const workspace = 'ctr-team';
    await api.post('/v1/workspaces', { id: workspace, name: workspace });
    const said: Array<[content: string, attribution: Json]> = [
      ['I live in Utrecht.', { user_id: 'kim' }],
      ['I live in Rotterdam.', { user_id: 'tom' }],
      ['My manager is Priya.', { user_id: 'kim' }],
      ['My manager is Lars.', { user_id: 'tom' }],
      ['The customer lives in Lisbon.', { subject_id: 'cust-a' }],
      ['The customer lives in Berlin.', { subject_id: 'cust-b' }],
      ['The release is on May 3.', { user_id: 'kim' }],
      ['The release is on June 10.', { user_id: 'tom' }],
      // One user's own, said twice: still a change.
      ['I moved to Delft.', { user_id: 'kim' }],
    ];
    for (const [content, attribution] of said) {
      clock.advance(1_000);
      expect((await api.post('/v1/memories', { workspace_id: workspace, content, ...attribution })).status).toBe(201);
    }
    await server.drainTasks();
    const found = (await open(api, workspace)).map((c) => c.explanation).sort();
    expect(found).toEqual(['May 3 vs June 10', 'residence: utrecht vs delft']);
    // A scan compares what states one attribute of one subject whatever its similarity: the same holds there.
    const scan = await api.post(`/v1/workspaces/${workspace}/contradictions/scan`, { batch_size: 50 });
    expect(scan.body.contradictions_found).toBe(0);
  });

  it('settles a pair when a memory of it is corrected so that it no longer contradicts, not before', async () => {
    const [berlin] = await remember(
      server,
      clock,
      'ctr-corrected',
      'The office is in Berlin.',
      'The office moved to Munich.',
    );
    const [pair] = await open(api, 'ctr-corrected');
    expect(pair).toMatchObject({ memory_a_id: berlin!.id, explanation: 'the office residence: berlin vs munich' });
    const correct = async (content: string) => {
      clock.advance(1_000);
      await api.put(`/v1/memories/${berlin!.id}`, { workspace_id: 'ctr-corrected', content });
      await server.drainTasks();
    };
    // Still said to be in Berlin now: the pair stands.
    await correct('The office is in Berlin, near the main station.');
    expect((await open(api, 'ctr-corrected')).map((c) => c.id)).toEqual([pair!.id]);
    await correct('The office was in Berlin until 2024.');
    expect(await open(api, 'ctr-corrected')).toEqual([]);
    // Settled as both kept: resolving it now is a conflict that says so.
    const again = await api.post(`/v1/contradictions/${pair!.id}/resolve?workspace_id=ctr-corrected`, {
      resolution: 'keep_a',
    });
    expect(again.status).toBe(409);
    expect(again.body.message).toContain('keep_both');
    const answer = await api.post('/v1/memories/recall', {
      workspace_id: 'ctr-corrected',
      query: 'Where is the office?',
    });
    const corrected = answer.body.memories.find((m: Json) => m.id === berlin!.id);
    expect(corrected.match_signals).not.toContain('contradicted');
  });

  it('never pairs memories of different workspaces', async () => {
    await remember(server, clock, 'ctr-iso-1', 'I live in Rome');
    await remember(server, clock, 'ctr-iso-2', 'I moved to Oslo');
    expect(await open(api, 'ctr-iso-1')).toEqual([]);
    expect(await open(api, 'ctr-iso-2')).toEqual([]);
  });
});

describe('contradiction resolution and scan', () => {
  const clock = new ManualClock();
  let server: TestServer;
  let api: Client;

  beforeAll(async () => {
    server = await startServer({ clock });
    api = client(server.url);
  });
  afterAll(() => server.stop());

  /** A recorded contradiction: found on write, or else by the scan's attribute pass (which needs no similarity). */
  async function contradiction(workspace: string, earlier: string, later: string) {
    const [a, b] = await remember(server, clock, workspace, earlier, later);
    expect((await api.post(`/v1/workspaces/${workspace}/contradictions/scan`, { batch_size: 10 })).status).toBe(200);
    const found = await open(api, workspace);
    expect(found).toHaveLength(1);
    return { a: a!, b: b!, ctr: found[0]! };
  }
  const memory = async (workspace: string, id: string) =>
    (await api.get(`/v1/memories/${id}?workspace_id=${workspace}`)).body.memory;
  const resolve = (workspace: string, id: string, body: unknown) =>
    api.post(`/v1/contradictions/${id}/resolve?workspace_id=${workspace}`, body);

  it('scans recent memories, reports only what is new, and keeps workspaces apart', async () => {
    // The hash test embedder puts these two far apart: detection on write misses them, the scan does not.
    const [a, b] = await remember(server, clock, 'scan-ws', 'Ana works at Google', 'Ana joined Microsoft last spring');
    expect(await open(api, 'scan-ws')).toEqual([]);
    const ask = async () =>
      (await api.post('/v1/memories/recall', { workspace_id: 'scan-ws', query: 'Where does Ana work?' })).body;
    await ask();
    expect((await ask()).cached).toBe(true);
    const scan = await api.post('/v1/workspaces/scan-ws/contradictions/scan', { batch_size: 10 });
    expect(scan.body).toMatchObject({ workspace_id: 'scan-ws', contradictions_found: 1 });
    expect(scan.body.contradictions[0]).toMatchObject({
      memory_a_id: a!.id,
      memory_b_id: b!.id,
      contradiction_type: 'exclusive_value',
      explanation: 'ana employer: google vs microsoft',
    });
    // The scan wrote the pair's `contradicts` link: recall answers afresh. The link disowns the earlier memory, so it
    // is no backlink of it (recall.test.ts).
    const after = await ask();
    expect(after.cached).toBe(false);
    expect(after.memories.find((m: { id: string }) => m.id === a!.id).match_signals).not.toContain('backlink');
    const again = await api.post('/v1/workspaces/scan-ws/contradictions/scan');
    expect(again.body).toEqual({ workspace_id: 'scan-ws', contradictions_found: 0, contradictions: [] });
    expect(await open(api, 'scan-ws')).toHaveLength(1);
    await remember(server, clock, 'scan-other', 'Ana works at Apple');
    expect((await api.post('/v1/workspaces/scan-other/contradictions/scan')).body.contradictions_found).toBe(0);
  });

  it('keep_a soft-deletes b; resolving twice is a conflict', async () => {
    const { a, b, ctr } = await contradiction('resolve-a', 'I live in Paris', 'I moved to Berlin');
    clock.advance(1_000);
    const resolved = await resolve('resolve-a', ctr.id, { resolution: 'keep_a' });
    expect(resolved.status).toBe(200);
    expect(resolved.body).toMatchObject({
      id: ctr.id,
      resolution: 'keep_a',
      resolved_at: clock.now().toISOString(),
      merged_memory_id: null,
    });
    expect((await memory('resolve-a', b.id)).status).toBe('deleted');
    expect((await memory('resolve-a', a.id)).status).toBe('active');
    expect(await open(api, 'resolve-a')).toEqual([]);
    expect((await resolve('resolve-a', ctr.id, { resolution: 'keep_b' })).status).toBe(409);
    expect((await memory('resolve-a', a.id)).status).toBe('active');
  });

  it('keep_b soft-deletes a, keep_both keeps both', async () => {
    const first = await contradiction('resolve-b', 'I live in Paris', 'I moved to Berlin');
    expect((await resolve('resolve-b', first.ctr.id, { resolution: 'keep_b' })).body.resolution).toBe('keep_b');
    expect([(await memory('resolve-b', first.a.id)).status, (await memory('resolve-b', first.b.id)).status]).toEqual([
      'deleted',
      'active',
    ]);

    const second = await contradiction('resolve-both', 'My favourite colour is blue', 'My favourite colour is green');
    expect((await resolve('resolve-both', second.ctr.id, { resolution: 'keep_both' })).body.resolution).toBe(
      'keep_both',
    );
    expect([
      (await memory('resolve-both', second.a.id)).status,
      (await memory('resolve-both', second.b.id)).status,
    ]).toEqual(['active', 'active']);
    // A resolved pair is not raised again.
    expect((await api.post('/v1/workspaces/resolve-both/contradictions/scan')).body.contradictions_found).toBe(0);
  });

  it('recall puts the later statement before the one it contradicts until the pair is resolved', async () => {
    const { a, b, ctr } = await contradiction(
      'later-first',
      'Ana works at Google in the office by the station',
      'Ana joined Microsoft last spring',
    );
    const ask = async () =>
      (await api.post('/v1/memories/recall', { workspace_id: 'later-first', query: 'Where does Ana work?' })).body
        .memories as Json[];
    const open = await ask();
    expect(open.map((m) => m.id)).toEqual([b.id, a.id]);
    expect(open.map((m) => m.match_signals.includes('contradicted'))).toEqual([false, true]);
    // The answer stays in order of its ranking score.
    expect(open[0]!.boosted_score).toBeGreaterThanOrEqual(open[1]!.boosted_score);
    // Resolved with both kept, the pair places nothing: the earlier statement, holding more of the question's
    // words, comes first again.
    expect((await resolve('later-first', ctr.id, { resolution: 'keep_both' })).status).toBe(200);
    const resolved = await ask();
    expect(resolved.map((m) => m.id)).toEqual([a.id, b.id]);
    expect(resolved.flatMap((m) => m.match_signals)).not.toContain('contradicted');

    // A later statement deleted without resolving the pair says nothing any more.
    const gone = await contradiction('later-gone', 'I live in Paris', 'I moved to Berlin');
    const askHome = async () =>
      (await api.post('/v1/memories/recall', { workspace_id: 'later-gone', query: 'Paris' })).body.memories as Json[];
    expect((await askHome()).find((m) => m.id === gone.a.id)!.match_signals).toContain('contradicted');
    expect((await api.delete(`/v1/memories/${gone.b.id}?workspace_id=later-gone`)).status).toBeLessThan(300);
    expect((await askHome()).find((m) => m.id === gone.a.id)!.match_signals).not.toContain('contradicted');
  });

  it('merge needs merged_content, then replaces both with one memory', async () => {
    const { a, b, ctr } = await contradiction('resolve-merge', 'I live in Paris', 'I moved to Berlin');
    for (const body of [{ resolution: 'merge' }, { resolution: 'merge', merged_content: '   ' }]) {
      expect((await resolve('resolve-merge', ctr.id, body)).status).toBe(422);
    }
    expect(await open(api, 'resolve-merge')).toHaveLength(1);
    expect((await memory('resolve-merge', a.id)).status).toBe('active');

    const merged = await resolve('resolve-merge', ctr.id, {
      resolution: 'merge',
      merged_content: 'I lived in Paris and moved to Berlin in 2025.',
    });
    expect(merged.status).toBe(200);
    expect(merged.body).toMatchObject({ resolution: 'merge', merged_memory_id: expect.stringMatching(/^mem_/) });
    const replacement = await memory('resolve-merge', merged.body.merged_memory_id);
    expect(replacement).toMatchObject({
      content: 'I lived in Paris and moved to Berlin in 2025.',
      status: 'active',
      metadata: { merged_from: [a.id, b.id], contradiction_id: ctr.id },
    });
    expect([(await memory('resolve-merge', a.id)).status, (await memory('resolve-merge', b.id)).status]).toEqual([
      'deleted',
      'deleted',
    ]);
    const edges = await server.app.services.storage.associations.listForMemories('resolve-merge', [replacement.id], {
      direction: 'outgoing',
      relationships: ['supersedes'],
    });
    expect(edges.map((e) => e.target_id).sort()).toEqual([a.id, b.id].sort());
  });

  it('answers bad input with a 4xx and changes nothing', async () => {
    const { a, b, ctr } = await contradiction('ctr-bad', 'I live in Paris', 'I moved to Berlin');
    for (const body of [
      {},
      { resolution: 'keep_neither' },
      { resolution: 'keep_a', extra: 1 },
      { resolution: 'merge', merged_content: 5 },
    ]) {
      expect((await resolve('ctr-bad', ctr.id, body)).status, JSON.stringify(body)).toBe(422);
    }
    expect((await resolve('ctr-bad', 'ctr_unknown', { resolution: 'keep_a' })).status).toBe(404);
    expect((await resolve('scan-ws', ctr.id, { resolution: 'keep_a' })).status).toBe(404);
    for (const query of ['limit=0', 'limit=501', 'limit=x'])
      expect((await api.get(`/v1/workspaces/ctr-bad/contradictions?${query}`)).status, query).toBe(422);
    for (const body of [{ batch_size: 0 }, { batch_size: 501 }, { batch_size: '5' }, { other: 1 }]) {
      expect((await api.post('/v1/workspaces/ctr-bad/contradictions/scan', body)).status, JSON.stringify(body)).toBe(
        422,
      );
    }
    expect((await api.get('/v1/workspaces/no-such-ws/contradictions')).status).toBe(404);
    expect((await api.post('/v1/workspaces/no-such-ws/contradictions/scan')).status).toBe(404);
    expect(await open(api, 'ctr-bad')).toHaveLength(1);
    expect([(await memory('ctr-bad', a.id)).status, (await memory('ctr-bad', b.id)).status]).toEqual([
      'active',
      'active',
    ]);
  });
});

describe('contradiction detection with a language model judge', () => {
  const clock = new ManualClock();
  let fake: FakeLlmServer;
  let server: TestServer;
  let api: Client;
  const verdicts: string[] = [];
  const isJudge = (req: RecordedRequest) => req.messages[0]?.content.includes('contradict each other') ?? false;

  beforeAll(async () => {
    // Enrichment's own model calls (classification, tiers) get an error and keep their rule-based values.
    fake = await startFakeOpenAI({
      respond: (req) => (isJudge(req) ? (verdicts.shift() ?? { status: 500 }) : { status: 500 }),
    });
    server = await startServer({ clock, llm: providerFor({ baseUrl: fake.baseUrl, maxRetries: 0 }) });
    api = client(server.url);
  });
  afterAll(async () => {
    await server.stop();
    await fake.close();
  });

  it('records the model’s verdict, may overrule the rules, and falls back to them when it fails', async () => {
    verdicts.push(
      JSON.stringify({
        contradicts: true,
        type: 'number_change',
        confidence: 0.93,
        explanation: 'The port changed from 8080 to 9090.',
      }),
    );
    await remember(server, clock, 'judge-yes', 'The server runs on port 8080', 'The server runs on port 9090');
    expect(await open(api, 'judge-yes')).toMatchObject([
      {
        contradiction_type: 'number_change',
        confidence: 0.93,
        detection_method: 'llm',
        explanation: 'The port changed from 8080 to 9090.',
      },
    ]);
    const asked = fake.requests.filter(isJudge);
    // Judged once, by the later memory's check, not again from the earlier one's.
    expect(asked).toHaveLength(1);
    expect(asked.at(-1)!.messages.at(-1)!.content).toBe(
      'Earlier memory: The server runs on port 8080\nLater memory: The server runs on port 9090',
    );

    verdicts.push(
      JSON.stringify({ contradicts: false, type: 'other', confidence: 0.9, explanation: 'Two different meetings.' }),
    );
    await remember(server, clock, 'judge-no', 'The meeting is on Monday', 'The meeting is on Friday');
    expect(await open(api, 'judge-no')).toEqual([]);

    await remember(server, clock, 'judge-down', 'The meeting is on Monday', 'The meeting is on Friday');
    expect(await open(api, 'judge-down')).toMatchObject([
      { contradiction_type: 'date_change', detection_method: 'rules' },
    ]);
  });
});

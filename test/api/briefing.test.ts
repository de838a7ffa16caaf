import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MemdClient } from '../../packages/client/src/index.js';
import { ManualClock, client, memdClient, startServer, type Client, type TestServer } from '../support/server.js';

const clock = new ManualClock();
let server: TestServer;
let memd: MemdClient;
/** For queries and bodies the client's types refuse. */
let api: Client;

beforeAll(async () => {
  server = await startServer({ clock });
  memd = memdClient(server.url);
  api = client(server.url);
  await memd.workspaces.create({ id: 'brief', name: 'briefing' });
  await memd.memories.create({ workspace_id: 'brief', content: 'An old note nobody needs today.' });
  clock.advance(3 * 3_600_000);
  for (const [content, importance] of [
    ['I live in Paris', 0.6],
    ['The team decided to ship the beta on Friday. The announcement goes out the same morning.', 0.9],
    ['I moved to Berlin', 0.7],
  ] as const) {
    clock.advance(60_000);
    await memd.memories.create({ workspace_id: 'brief', content, importance });
  }
  await server.drainTasks();
  await memd.contradictions.scan('brief');
  const thread = (await memd.threads.create({ workspace_id: 'brief', title: 'Onboarding chat' })).thread;
  await memd.threads.append(
    thread.thread_id,
    {
      messages: [
        { role: 'user', content: 'Hello' },
        { role: 'assistant', content: 'Welcome!' },
      ],
    },
    { query: { workspace_id: 'brief' } },
  );
});
afterAll(() => server.stop());

describe('briefing', () => {
  it('summarises recent memories, sessions, open threads and contradictions', async () => {
    const session = (await memd.sessions.start({ workspace_id: 'brief' })).session;
    const { briefing } = await memd.sessions.briefing({ workspace_id: 'brief' });
    expect(briefing).toMatchObject({
      workspace_id: 'brief',
      lookback_minutes: 60,
      generated_at: clock.now().toISOString(),
    });
    expect(briefing.summary).toBe(
      '3 new memories in the last 60 minutes (semantic 2, decision 1); most important: “The team decided to ship the beta on Friday.”; “I moved to Berlin”. ' +
        '1 active session, 1 started in the last 60 minutes. ' +
        '1 open chat thread active in the last 60 minutes: “Onboarding chat” (2 messages, 2 not yet decomposed). ' +
        '1 unresolved contradiction to review.',
    );
    // Newest first, at the abstract level; derived facts are not listed.
    expect(briefing.recent_memories.map((m) => m.content)).toEqual([
      'I moved to Berlin',
      'The team decided to ship the beta on Friday.',
      'I live in Paris',
    ]);
    expect(briefing.recent_memories[1]).toMatchObject({
      type: expect.any(String),
      subtype: 'decision',
      importance: 0.9,
      tags: [],
      session_id: null,
    });
    expect(briefing.contradictions).toMatchObject([
      {
        contradiction_type: 'exclusive_value',
        memory_a_content: 'I live in Paris',
        memory_b_content: 'I moved to Berlin',
      },
    ]);
    // The fields the reference's clients read, beside the spec's own: the same contradictions, memories and threads.
    expect(briefing.contradictions_detected).toEqual(briefing.contradictions);
    expect(briefing.memories).toEqual(briefing.recent_memories);
    expect(briefing.open_threads).toEqual([expect.objectContaining({ title: 'Onboarding chat' })]);

    // The workspace also comes from the X-Session-ID session.
    expect((await memd.withSession(session.id).sessions.briefing()).briefing.workspace_id).toBe('brief');
  });

  it('honours lookback, detail level, limit and the include switches', async () => {
    const wide = (
      await memd.sessions.briefing({
        workspace_id: 'brief',
        lookback_minutes: 600,
        limit: 2,
        detail_level: 'full',
        include_contradictions: false,
      })
    ).briefing;
    expect(wide.summary).toMatch(/^4 new memories in the last 10 hours \(.* among the latest 2\)/);
    expect(wide.recent_memories.map((m) => m.content)).toEqual([
      'I moved to Berlin',
      'The team decided to ship the beta on Friday. The announcement goes out the same morning.',
    ]);
    expect(wide.contradictions).toEqual([]);
    expect(wide.summary).toContain('1 unresolved contradiction to review.');

    const bare = (await memd.sessions.briefing({ workspace_id: 'brief', include_memories: false })).briefing;
    expect(bare.recent_memories).toEqual([]);

    clock.advance(2 * 3_600_000);
    const later = (await memd.sessions.briefing({ workspace_id: 'brief' })).briefing;
    expect(later.summary).toMatch(
      /^No new memories in the last 60 minutes\. .* No chat threads active in the last 60 minutes\. 1 unresolved contradiction to review\.$/,
    );
  });

  it('comes with a new session on request, looking back a day by default', async () => {
    const plain = await memd.sessions.start({ workspace_id: 'brief' });
    expect(plain.briefing).toBeNull();
    const briefed = await memd.sessions.start.withResponse({ workspace_id: 'brief', briefing: true });
    expect(briefed.status).toBe(201);
    expect(briefed.data.briefing).toMatchObject({ workspace_id: 'brief', lookback_minutes: 1_440 });
    expect(briefed.data.briefing!.recent_memories[0]).toMatchObject({ content: 'I moved to Berlin' });
    const tuned = await memd.sessions.start({
      workspace_id: 'brief',
      briefing: true,
      briefing_options: { lookback_hours: 0.5, detail_level: 'overview', limit: 1 },
    });
    expect(tuned.briefing).toMatchObject({ lookback_minutes: 30, recent_memories: [] });
    const fresh = await memd.sessions.start({ workspace_id: 'brief-new', briefing: true });
    expect(fresh.briefing!.summary).toBe(
      'No new memories in the last 24 hours. 1 active session, 1 started in the last 24 hours. No chat threads active in the last 24 hours. No unresolved contradictions.',
    );
  });

  it('answers bad input with a 4xx', async () => {
    for (const query of [
      'lookback_minutes=0',
      'lookback_minutes=x',
      'detail_level=everything',
      'limit=0',
      'limit=101',
      'include_memories=perhaps',
    ]) {
      expect((await api.get(`/v1/sessions/briefing?workspace_id=brief&${query}`)).status, query).toBe(422);
    }
    // A query parameter the route does not know is ignored.
    expect((await api.get('/v1/sessions/briefing?workspace_id=brief&other=1')).status).toBe(200);
    expect((await api.get('/v1/sessions/briefing', { 'x-session-id': 'sess_unknown' })).status).toBe(404);
    const before = (await api.get('/v1/sessions?workspace_id=brief')).body.total_count;
    for (const body of [
      { briefing: 'yes' },
      { briefing: true, briefing_options: { lookback_hours: 0 } },
      { briefing: true, briefing_options: { depth: 1 } },
      { briefing_options: { limit: 101 } },
    ]) {
      expect((await api.post('/v1/sessions', { workspace_id: 'brief', ...body })).status, JSON.stringify(body)).toBe(
        422,
      );
    }
    expect((await api.get('/v1/sessions?workspace_id=brief')).body.total_count).toBe(before);
  });
});

import { describe, expect, it } from 'vitest';
import { expectFields, MEMORY_FIELDS, SESSION_FIELDS } from './fields.js';
import { useClientServer } from './server.js';

const BRIEFING_SUMMARY_FIELDS = [
  'total_memories',
  'recent_memories',
  'active_topics',
  'total_categories',
  'total_associations',
  'memory_types',
];

/** The session and briefing calls of the SDK (v0.0.6), as it sends them. */
describe('SDK: sessions, working memory, briefing', () => {
  const t = useClientServer({ workspaceId: 'sdk-sessions' });

  it('createSession sets the session; writes through it inherit its context; working memory, touch, commit', async () => {
    // createSession({ contextId, workingMemory, briefing }) with the SDK's defaults
    const started = await t.sdk.call({
      method: 'POST',
      path: '/v1/sessions',
      body: {
        workspace_id: 'sdk-sessions',
        ttl_seconds: 3600,
        metadata: {},
        context_id: 'feature-x',
        working_memory: { task: 'port the cache' },
        briefing: true,
        briefing_options: { lookback_hours: 24, detail_level: 'abstract', limit: 5 },
      },
    });
    expect(started.status, started.errorMessage).toBe(201);
    expectFields(started.body.session, SESSION_FIELDS, 'session');
    expect(started.body.session.working_memory).toEqual({ task: 'port the cache' });
    expectFields(started.body.briefing.workspace_summary, BRIEFING_SUMMARY_FIELDS, 'briefing.workspace_summary');
    const sessionId = started.body.session.id as string;
    t.sdk.state.sessionId = sessionId; // autoSetSession

    const written = await t.sdk.call({
      method: 'POST',
      path: '/v1/memories',
      body: {
        content: 'We chose LRU eviction for the cache.',
        workspace_id: 'sdk-sessions',
        importance: 0.5,
        tags: [],
        metadata: {},
        associations: [],
      },
    });
    expect(written.body.memory).toMatchObject({ context_id: 'feature-x', session_id: sessionId });

    // setWorkingMemory, getWorkingMemory (all, and one key)
    expect(
      (
        await t.sdk.call({
          method: 'POST',
          path: `/v1/sessions/${sessionId}/memory`,
          body: {
            key: 'decision',
            value: { text: 'We decided to use LRU eviction for the cache layer.', importance: 0.9 },
          },
        })
      ).status,
    ).toBe(201);
    const all = await t.sdk.call({ method: 'GET', path: `/v1/sessions/${sessionId}/memory` });
    expect(all.body).toMatchObject({
      task: 'port the cache',
      decision: { text: 'We decided to use LRU eviction for the cache layer.' },
    });
    expect((await t.sdk.call({ method: 'GET', path: `/v1/sessions/${sessionId}/memory?key=task` })).body).toEqual({
      task: 'port the cache',
    });

    // getSession, listSessions
    const got = await t.sdk.call({ method: 'GET', path: `/v1/sessions/${sessionId}` });
    expectFields(got.body.session, SESSION_FIELDS, 'session');
    const listed = await t.sdk.call({
      method: 'GET',
      path: '/v1/sessions?workspace_id=sdk-sessions&context_id=feature-x',
    });
    expect(listed.body.sessions.map((s: { id: string }) => s.id)).toEqual([sessionId]);
    expect(listed.body.total_count).toBe(1);

    // touchSession(id, ttlSeconds) and touchSession(id): a JSON body, `{session}` back
    const touched = await t.sdk.call({
      method: 'POST',
      path: `/v1/sessions/${sessionId}/touch`,
      body: { ttl_seconds: 7200 },
    });
    expect(touched.status, touched.errorMessage).toBe(200);
    expectFields(touched.body.session, SESSION_FIELDS, 'touched session');
    expect(Date.parse(touched.body.session.expires_at) - Date.now()).toBeGreaterThan(3600_000);
    expect(
      (await t.sdk.call({ method: 'POST', path: `/v1/sessions/${sessionId}/touch`, body: {} })).body.session.id,
    ).toBe(sessionId);

    // commitSession(id) with the SDK's defaults (categories left out)
    const committed = await t.sdk.call({
      method: 'POST',
      path: `/v1/sessions/${sessionId}/commit`,
      body: { min_importance: 0.5, deduplicate: true, max_memories: 50 },
    });
    expect(committed.status, committed.errorMessage).toBe(200);
    expectFields(
      committed.body,
      [
        'session_id',
        'memories_extracted',
        'memories_deduplicated',
        'memories_created',
        'breakdown',
        'extraction_time_ms',
      ],
      'commit result',
    );
    expect(committed.body.memories_created).toBeGreaterThan(0);
    t.sdk.state.sessionId = undefined;
  });

  it('getBriefing in both of its forms reads the client shape of a briefing', async () => {
    await t.sdk.call({
      method: 'POST',
      path: '/v1/memories',
      body: {
        content: 'We decided to ship on Fridays.',
        workspace_id: 'sdk-sessions',
        subtype: 'decision',
        importance: 0.8,
        tags: ['release'],
        metadata: {},
        associations: [],
      },
    });
    await t.sdk.call({
      method: 'POST',
      path: '/v1/threads',
      body: { workspace_id: 'sdk-sessions', title: 'Release planning' },
    });

    // getBriefing(24, true): lookback in minutes, contradictions, workspace_id from the configuration
    const legacy = await t.sdk.call({
      method: 'GET',
      path: '/v1/sessions/briefing?lookback_minutes=1440&include_contradictions=true&workspace_id=sdk-sessions',
    });
    expect(legacy.status, legacy.errorMessage).toBe(200);
    const briefing = legacy.body.briefing;
    expectFields(
      briefing,
      ['workspace_summary', 'recent_activity', 'open_threads', 'contradictions_detected', 'memories'],
      'briefing',
    );
    expectFields(briefing.workspace_summary, BRIEFING_SUMMARY_FIELDS, 'workspace_summary');
    expect(briefing.workspace_summary.total_memories).toBeGreaterThanOrEqual(2);
    expect(briefing.workspace_summary.active_topics).toContain('release');
    expect(briefing.workspace_summary.memory_types).toEqual(expect.objectContaining({ semantic: expect.any(Number) }));
    expect(briefing.open_threads.map((th: { title: string }) => th.title)).toContain('Release planning');
    expectFields(
      briefing.recent_activity[0],
      ['timestamp', 'summary', 'memories_created', 'key_decisions'],
      'recent_activity entry',
    );
    expect(briefing.recent_activity.flatMap((a: { key_decisions: string[] }) => a.key_decisions)).toContain(
      'We decided to ship on Fridays.',
    );
    expect(briefing.memories.map((m: { content: string }) => m.content)).toContain('We decided to ship on Fridays.');

    // getBriefing({ lookbackMinutes, detailLevel, limit, includeMemories, includeContradictions })
    const options = await t.sdk.call({
      method: 'GET',
      path: '/v1/sessions/briefing?lookback_minutes=60&detail_level=full&limit=1&include_memories=true&include_contradictions=false&workspace_id=sdk-sessions',
    });
    expect(options.status, options.errorMessage).toBe(200);
    expect(options.body.briefing.memories).toHaveLength(1);
    expectFields(
      options.body.briefing.memories[0],
      ['id', 'content', 'type', 'importance', 'created_at'],
      'briefing memory',
    );
  });

  it('reaches the memories the briefing names by id', async () => {
    const briefing = (
      await t.sdk.call({ method: 'GET', path: '/v1/sessions/briefing?lookback_minutes=60&workspace_id=sdk-sessions' })
    ).body.briefing;
    const id = briefing.memories[0].id as string;
    expectFields(
      (await t.sdk.call({ method: 'GET', path: `/v1/memories/${id}` })).body.memory,
      MEMORY_FIELDS,
      'memory',
    );
  });
});

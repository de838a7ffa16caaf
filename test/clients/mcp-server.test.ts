import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { providerFor } from '../providers/llm/setup.js';
import { startFakeOpenAI, type FakeLlmServer } from '../support/fake-llm-server.js';
import { startServer, type TestServer } from '../support/server.js';
import { ASSOCIATION_FIELDS, expectFields, MEMORY_FIELDS, SESSION_FIELDS } from './fields.js';
import { wireClient, type WireClient } from './wire.js';

/**
 * The MemoryLayer MCP server (v0.0.6) calls the API through the SDK with a workspace from MEMORYLAYER_WORKSPACE_ID
 * (`_default` unset) and, once a session started, X-Session-ID on every call. Each tool's requests, as it sends them,
 * and the fields its handler reads. Body-less calls (forget, session end, checkpoint, thread decompose/delete) are in
 * bodyless-calls.test.ts.
 */
describe('MCP server tools', () => {
  let fake: FakeLlmServer;
  let server: TestServer;
  let mcp: WireClient;

  beforeAll(async () => {
    fake = await startFakeOpenAI();
    server = await startServer({ llm: providerFor({ baseUrl: fake.baseUrl, maxRetries: 0 }) });
    mcp = wireClient(server.url, { workspaceId: 'agent-project' });
  });
  afterAll(async () => {
    await server.stop();
    await fake.close();
  });

  const remember = async (content: string, extra: Record<string, unknown> = {}) => {
    // memory_remember { content, type?, importance?, tags?, subtype? }: the SDK fills the rest
    const res = await mcp.call({
      method: 'POST',
      path: '/v1/memories',
      body: {
        content,
        workspace_id: 'agent-project',
        importance: 0.5,
        tags: [],
        metadata: {},
        associations: [],
        ...extra,
      },
    });
    expect(res.status, res.errorMessage).toBe(201);
    expectFields(res.body.memory, ['id', 'type', 'importance', 'tags'], 'memory');
    return res.body.memory;
  };

  it('memory_remember, memory_recall, memory_reflect, memory_associate, memory_graph_query, get memory', async () => {
    const problem = await remember('The nightly build fails on the ARM runners.', {
      type: 'episodic',
      subtype: 'problem',
      importance: 0.8,
      tags: ['ci'],
    });
    const fix = await remember('Pinning the toolchain fixed the ARM build.', { subtype: 'fix', tags: ['ci'] });

    // memory_recall { query, types, tags, limit, min_relevance }
    const recalled = await mcp.call({
      method: 'POST',
      path: '/v1/memories/recall',
      body: {
        query: 'ARM build failure',
        workspace_id: 'agent-project',
        types: [],
        subtypes: [],
        tags: ['ci'],
        limit: 10,
        min_relevance: 0,
        context: [],
      },
    });
    expect(recalled.status, recalled.errorMessage).toBe(200);
    expectFields(recalled.body, ['memories', 'total_count', 'search_latency_ms', 'mode_used'], 'recall result');
    for (const m of recalled.body.memories)
      expectFields(m, ['id', 'content', 'type', 'importance', 'tags', 'created_at', 'access_count'], 'recalled memory');

    // memory_reflect { query, detail_level?, include_sources?, depth? }
    fake.script(JSON.stringify({ reflection: 'Pin the toolchain.', sources: [], confidence: 0.7 }));
    const reflected = await mcp.call({
      method: 'POST',
      path: '/v1/memories/reflect',
      body: {
        query: 'How did we fix the ARM build?',
        workspace_id: 'agent-project',
        include_sources: true,
        depth: 2,
        types: [],
        subtypes: [],
        tags: [],
      },
    });
    expect(reflected.status, reflected.errorMessage).toBe(200);
    expectFields(reflected.body, ['reflection', 'source_memories', 'tokens_processed'], 'reflect result');
    expect(reflected.body.source_memories.length).toBeGreaterThan(0);

    // memory_associate { source_id, target_id, relationship, strength }
    const linked = await mcp.call({
      method: 'POST',
      path: `/v1/memories/${fix.id}/associate`,
      body: { target_id: problem.id, relationship: 'solves', strength: 0.8 },
    });
    expect(linked.status, linked.errorMessage).toBe(201);
    expectFields(linked.body.association, ASSOCIATION_FIELDS, 'association');

    // memory_graph_query { start_memory_id, relationship_types?, max_depth?, direction?, max_paths? } through the SDK's defaults
    const graph = await mcp.call({
      method: 'POST',
      path: `/v1/memories/${fix.id}/traverse`,
      body: {
        relationship_types: ['solves'],
        max_depth: 3,
        direction: 'outgoing',
        min_strength: 0,
        max_paths: 50,
        max_nodes: 50,
      },
    });
    expect(graph.status, graph.errorMessage).toBe(200);
    expect(graph.body.paths[0].edges[0]).toMatchObject({
      source_id: fix.id,
      target_id: problem.id,
      relationship: 'solves',
      strength: 0.8,
    });
    expectFields(graph.body, ['paths', 'total_paths', 'unique_nodes'], 'traversal');

    expectFields(
      (await mcp.call({ method: 'GET', path: `/v1/memories/${fix.id}` })).body.memory,
      MEMORY_FIELDS,
      'memory',
    );
  });

  it('memory_briefing reads the workspace summary of the workspace it writes to', async () => {
    await remember('We decided to release every second Tuesday.', { subtype: 'decision', tags: ['release'] });
    // memory_briefing with its defaults: 60 minutes, abstract, 10, memories and contradictions
    const res = await mcp.call({
      method: 'GET',
      path: '/v1/sessions/briefing?lookback_minutes=60&detail_level=abstract&limit=10&include_memories=true&include_contradictions=true&workspace_id=agent-project',
    });
    expect(res.status, res.errorMessage).toBe(200);
    const { workspace_summary: summary, recent_activity, contradictions_detected, memories } = res.body.briefing;
    expectFields(
      summary,
      ['total_memories', 'total_associations', 'total_categories', 'memory_types', 'active_topics'],
      'workspace_summary',
    );
    // The briefing that reported an empty workspace: it counts what this client wrote.
    expect(summary.total_memories).toBeGreaterThanOrEqual(3);
    expect(summary.total_associations).toBeGreaterThan(0);
    expect(recent_activity.length).toBeGreaterThan(0);
    expect(contradictions_detected).toEqual(expect.any(Array));
    expect(memories.length).toBeGreaterThan(0);
  });

  it('memory_session_start, working memory, touch, memory_session_commit, and the context environment through the session', async () => {
    // memory_session_start: the SDK's createSession with the MCP's TTL and no briefing
    const started = await mcp.call({
      method: 'POST',
      path: '/v1/sessions',
      body: {
        workspace_id: 'agent-project',
        ttl_seconds: 3600,
        metadata: { client: 'claude-code' },
        working_memory: {},
        briefing: false,
      },
    });
    expect(started.status, started.errorMessage).toBe(201);
    expectFields(started.body.session, SESSION_FIELDS, 'session');
    const sessionId = started.body.session.id as string;
    mcp.state.sessionId = sessionId;

    expect(
      (
        await mcp.call({
          method: 'POST',
          path: `/v1/sessions/${sessionId}/memory`,
          body: { key: 'plan', value: 'We decided to pin the toolchain in CI for every runner.' },
        })
      ).status,
    ).toBe(201);
    expect((await mcp.call({ method: 'GET', path: `/v1/sessions/${sessionId}/memory?key=plan` })).body).toEqual({
      plan: 'We decided to pin the toolchain in CI for every runner.',
    });
    // touchSession(id) without a TTL: an empty JSON object; the MCP reads session.expires_at
    const touched = await mcp.call({ method: 'POST', path: `/v1/sessions/${sessionId}/touch`, body: {} });
    expect(touched.body.session.expires_at).toEqual(expect.any(String));

    // memory_context_exec { code, result_var?, return_result?, max_return_chars? }
    const executed = await mcp.call({
      method: 'POST',
      path: '/v1/context/execute',
      body: { code: 'total = 2 + 3\nprint(total)', return_result: true, max_return_chars: 10000 },
    });
    expect(executed.status, executed.errorMessage).toBe(200);
    expectFields(executed.body, ['output', 'variables_changed'], 'exec result');
    expect(executed.body.output).toContain('5');

    // memory_context_load { var, query, limit?, types?, tags?, min_relevance?, include_embeddings? }
    const loaded = await mcp.call({
      method: 'POST',
      path: '/v1/context/load',
      body: { var: 'notes', query: 'ARM build', limit: 50, include_embeddings: false },
    });
    expect(loaded.status, loaded.errorMessage).toBe(200);
    expectFields(loaded.body, ['var', 'count', 'query'], 'load result');

    // memory_context_inject { key, value, parse_json? }
    const injected = await mcp.call({
      method: 'POST',
      path: '/v1/context/inject',
      body: { key: 'config', value: '{"runners": 3}', parse_json: true },
    });
    expect(injected.status, injected.errorMessage).toBe(200);
    expectFields(injected.body, ['key', 'type'], 'inject result');

    // memory_context_query { prompt, variables, max_context_chars?, result_var? }
    fake.script('Three runners.');
    const asked = await mcp.call({
      method: 'POST',
      path: '/v1/context/query',
      body: { prompt: 'How many runners?', variables: ['config'] },
    });
    expect(asked.status, asked.errorMessage).toBe(200);
    expectFields(asked.body, ['response', 'tokens_used', 'variables_included'], 'query result');

    // memory_context_rlm { goal, …, detail_level: brief | standard | detailed }
    fake.script('```python\n_final_result = total\n_goal_achieved = True\n```');
    const rlm = await mcp.call({
      method: 'POST',
      path: '/v1/context/rlm',
      body: { goal: 'Report the total', max_iterations: 2, detail_level: 'brief' },
    });
    expect(rlm.status, rlm.errorMessage).toBe(200);
    expectFields(rlm.body, ['result', 'iterations', 'trace'], 'rlm result');

    // memory_context_status
    const status = await mcp.call({ method: 'GET', path: '/v1/context/status' });
    expectFields(status.body, ['active', 'variable_count', 'variables', 'execution_count'], 'status');

    // memory_session_commit { importance_threshold } without ending the session
    const committed = await mcp.call({
      method: 'POST',
      path: `/v1/sessions/${sessionId}/commit`,
      body: { min_importance: 0.5, deduplicate: true, max_memories: 50 },
    });
    expect(committed.status, committed.errorMessage).toBe(200);
    expectFields(committed.body, ['memories_extracted', 'memories_created'], 'commit result');
    mcp.state.sessionId = undefined;
  });
});

import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { providerFor } from '../providers/llm/setup.js';
import { startFakeOpenAI, type FakeLlmServer } from '../support/fake-llm-server.js';
import { growth, parseMetrics, sampleValue, type Sample } from '../support/prometheus.js';
import { client, memdClient, startServer, startTwoTeams, type Client, type TestServer } from '../support/server.js';

describe('/metrics as requests flow', () => {
  let fake: FakeLlmServer;
  let server: TestServer;
  let api: Client;
  const scrape = async (): Promise<Sample[]> => {
    const response = await api.get('/metrics');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/plain');
    return parseMetrics(response.body as string);
  };

  beforeAll(async () => {
    fake = await startFakeOpenAI();
    server = await startServer({ llm: providerFor({ baseUrl: fake.baseUrl, maxRetries: 0, timeoutMs: 1_000 }) });
    api = client(server.url);
  });
  afterAll(async () => {
    await server.stop();
    await fake.close();
  });

  it('counts requests by route pattern and status, with their latency', async () => {
    const before = await scrape();
    const created = await api.post('/v1/memories', { content: 'The quarterly report is due on Friday.' });
    expect(created.status).toBe(201);
    expect((await api.get(`/v1/memories/${created.body.memory.id}`)).status).toBe(200);
    expect((await api.get('/v1/memories/mem_does_not_exist')).status).toBe(404);
    expect((await api.get('/v1/no/such/route')).status).toBe(404);
    const after = await scrape();

    const count = 'memd_http_request_duration_seconds_count';
    expect(growth(before, after, count, { method: 'POST', route: '/v1/memories', status_code: '201' })).toBe(1);
    expect(growth(before, after, count, { method: 'GET', route: '/v1/memories/:memory_id', status_code: '200' })).toBe(
      1,
    );
    expect(growth(before, after, count, { method: 'GET', route: '/v1/memories/:memory_id', status_code: '404' })).toBe(
      1,
    );
    expect(growth(before, after, count, { route: 'unmatched', status_code: '404' })).toBe(1);
    expect(
      growth(before, after, 'memd_http_request_duration_seconds_sum', { method: 'POST', route: '/v1/memories' }),
    ).toBeGreaterThan(0);
    // The le="+Inf" bucket holds every request.
    expect(sampleValue(after, 'memd_http_request_duration_seconds_bucket', { route: '/v1/memories', le: '+Inf' })).toBe(
      sampleValue(after, count, { route: '/v1/memories' }),
    );
    // Labels are patterns: no id, no raw path.
    const routes = new Set(after.filter((s) => s.name === count).map((s) => s.labels.route));
    expect([...routes].some((route) => route!.includes(created.body.memory.id) || route!.includes('no/such'))).toBe(
      false,
    );
  });

  it('times each recall phase that ran and counts cache hits and misses', async () => {
    await api.post('/v1/memories', { content: 'Marta prefers green tea in the afternoon.' });
    const before = await scrape();
    const query = { query: 'what tea does Marta prefer' };
    expect((await api.post('/v1/memories/recall', query)).body.cached).toBe(false);
    expect((await api.post('/v1/memories/recall', query)).body.cached).toBe(true);
    const after = await scrape();

    expect(growth(before, after, 'memd_recall_cache_lookups_total', { result: 'miss' })).toBe(1);
    expect(growth(before, after, 'memd_recall_cache_lookups_total', { result: 'hit' })).toBe(1);
    const phases = 'memd_recall_phase_duration_seconds_count';
    for (const phase of ['embed_query', 'dense', 'keyword', 'fusion', 'rank', 'present'])
      expect(growth(before, after, phases, { phase }), phase).toBe(1);
    // No reranker is configured and the query has no conversation to rewrite it with.
    for (const phase of ['rerank', 'rewrite']) expect(growth(before, after, phases, { phase }), phase).toBe(0);
    expect(growth(before, after, 'memd_recall_phase_duration_seconds_sum', { phase: 'dense' })).toBeGreaterThan(0);
    // The query was embedded once, beside what it asks about the person it names ("what tea does prefer",
    // core/recall/topical.ts): two texts in one call; the cached recall reached no model.
    expect(growth(before, after, 'memd_embedding_texts_total', { provider: 'hash' })).toBe(2);
  });

  it('counts a request whose client hung up as 499, once', async () => {
    const before = await scrape();
    // The query rewrite waits for a model that never answers, until its timeout; the client gives up first.
    fake.script({ hang: true });
    const gaveUp = memdClient(server.url).memories.recall(
      { query: 'why?', context: [{ role: 'user', content: 'the dashboard' }] },
      { signal: AbortSignal.timeout(200) },
    );
    await expect(gaveUp).rejects.toThrow();
    // The server finishes the recall without the rewrite, and has no one to answer.
    await vi.waitFor(
      async () =>
        expect(growth(before, await scrape(), 'memd_recall_phase_duration_seconds_count', { phase: 'present' })).toBe(
          1,
        ),
      { timeout: 5_000 },
    );
    await sleep(50);
    const after = await scrape();
    const recalls = { method: 'POST', route: '/v1/memories/recall' };
    expect(growth(before, after, 'memd_http_request_duration_seconds_count', { ...recalls, status_code: '499' })).toBe(
      1,
    );
    expect(growth(before, after, 'memd_http_request_duration_seconds_count', recalls)).toBe(1);
  });

  it('counts language-model calls, their tokens and their failures', async () => {
    const before = await scrape();
    const answer = JSON.stringify({ reflection: 'Marta drinks green tea.', sources: [], confidence: 0.8 });
    fake.script({ text: answer, inputTokens: 120, outputTokens: 9 }, { status: 400, message: 'no' });
    expect((await api.post('/v1/memories/reflect', { query: 'Marta tea' })).status).toBe(200);
    expect((await api.post('/v1/memories/reflect', { query: 'Marta tea again' })).status).toBe(502);
    const after = await scrape();

    const labels = { provider: 'openai', model: 'test-model' };
    expect(growth(before, after, 'memd_llm_request_duration_seconds_count', { ...labels, outcome: 'ok' })).toBe(1);
    expect(growth(before, after, 'memd_llm_request_duration_seconds_count', { ...labels, outcome: 'error' })).toBe(1);
    expect(growth(before, after, 'memd_llm_tokens_total', { ...labels, direction: 'input' })).toBe(120);
    expect(growth(before, after, 'memd_llm_tokens_total', { ...labels, direction: 'output' })).toBe(9);
  });

  it('reports the task queue by state, tasks run and task failures', async () => {
    await server.drainTasks();
    await api.post('/v1/memories', { content: 'The boiler is serviced every October.' });
    await server.app.services.storage.tasks.enqueue([
      { kind: 'no.such.kind', workspaceId: null, payload: {}, runAt: new Date().toISOString() },
    ]);
    const queued = await scrape();
    expect(sampleValue(queued, 'memd_tasks', { state: 'pending' })).toBe(2);
    expect(sampleValue(queued, 'memd_tasks', { state: 'failed' })).toBe(0);
    expect(sampleValue(queued, 'memd_task_backlog', { kind: 'memory.enrich' })).toBe(1);
    expect(sampleValue(queued, 'memd_task_backlog', { kind: 'no.such.kind' })).toBe(1);
    expect(sampleValue(queued, 'memd_task_backlog_oldest_seconds', { kind: 'memory.enrich' })).toBeGreaterThanOrEqual(
      0,
    );

    // Enrichment asks the model to file the memory; '{}' keeps the rule-based values.
    fake.script('{}');
    expect(await server.drainTasks()).toBe(2);
    const drained = await scrape();
    expect(sampleValue(drained, 'memd_tasks', { state: 'pending' })).toBe(0);
    expect(sampleValue(drained, 'memd_task_backlog')).toBeUndefined();
    expect(sampleValue(drained, 'memd_task_backlog_oldest_seconds')).toBeUndefined();
    // A task nobody handles fails for good at once.
    expect(sampleValue(drained, 'memd_tasks', { state: 'failed' })).toBe(1);
    expect(growth(queued, drained, 'memd_task_failures_total', { kind: 'no.such.kind', final: 'true' })).toBe(1);
    expect(growth(queued, drained, 'memd_task_duration_seconds_count', { kind: 'memory.enrich', outcome: 'ok' })).toBe(
      1,
    );
  });

  it('counts live sandboxes', async () => {
    const session = (await api.post('/v1/sessions', {})).body.session;
    const executed = await api.post('/v1/context/execute', { code: 'x = 1' }, { 'x-session-id': session.id });
    expect(executed.status, JSON.stringify(executed.body)).toBe(200);
    expect(sampleValue(await scrape(), 'memd_sandboxes_live')).toBe(1);
    expect((await api.delete(`/v1/sessions/${session.id}`)).status).toBeLessThan(300);
    expect(sampleValue(await scrape(), 'memd_sandboxes_live')).toBe(0);
  });

  it("serves Node's default metrics", async () => {
    const samples = await scrape();
    expect(sampleValue(samples, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
    expect(sampleValue(samples, 'nodejs_heap_size_used_bytes')).toBeGreaterThan(0);
  });
});

describe('who may scrape /metrics', () => {
  it('with MEMD_ADMIN_KEY: the admin key or MEMD_METRICS_KEY, not a workspace key, and the metrics key opens nothing else', async () => {
    const teams = await startTwoTeams();
    const { server } = teams;
    try {
      // startTwoTeams sets no metrics key: the admin key alone may scrape.
      expect((await client(server.url).get('/metrics')).status).toBe(401);
      expect((await teams.keyA.get('/metrics')).status).toBe(403);
      expect((await teams.admin.get('/metrics')).status).toBe(200);
    } finally {
      await server.stop();
    }

    const scrapeKey = 'metrics-only-key-for-tests';
    const guarded = await startServer({ env: { MEMD_ADMIN_KEY: 'admin-key-for-tests', MEMD_METRICS_KEY: scrapeKey } });
    try {
      const prometheus = client(guarded.url, { authorization: `Bearer ${scrapeKey}` });
      expect((await prometheus.get('/metrics')).status).toBe(200);
      expect((await client(guarded.url, { authorization: 'Bearer wrong' }).get('/metrics')).status).toBe(401);
      expect((await prometheus.get('/v1/memories')).status).toBe(401);
    } finally {
      await guarded.stop();
    }
  });

  it('MEMD_METRICS_ENABLED=false removes the route', async () => {
    const off = await startServer({ env: { MEMD_METRICS_ENABLED: 'false' } });
    try {
      const response = await client(off.url).get('/metrics');
      expect(response.status).toBe(404);
      expect(response.body.code).toBe('not_found');
    } finally {
      await off.stop();
    }
  });
});

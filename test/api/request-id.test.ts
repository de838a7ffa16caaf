import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { providerFor } from '../providers/llm/setup.js';
import { startFakeOpenAI, type FakeLlmServer } from '../support/fake-llm-server.js';
import { client, LogCapture, startServer, type Client, type TestServer } from '../support/server.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('request ids', () => {
  let fake: FakeLlmServer;
  let server: TestServer;
  let api: Client;
  const logs = new LogCapture();

  beforeAll(async () => {
    // Every model call fails: the core logs a warning and carries on without the model.
    fake = await startFakeOpenAI({ respond: () => ({ status: 400, message: 'refused' }) });
    server = await startServer({ logs, llm: providerFor({ baseUrl: fake.baseUrl, maxRetries: 0 }) });
    api = client(server.url);
  });
  afterAll(async () => {
    await server.stop();
    await fake.close();
  });

  it('answers every request with an X-Request-ID, its own or a fresh one', async () => {
    const first = (await api.get('/health')).headers.get('x-request-id');
    const second = (await api.get('/v1/no/such/route')).headers.get('x-request-id');
    expect(first).toMatch(UUID);
    expect(second).toMatch(UUID);
    expect(first).not.toBe(second);
    expect((await api.get('/health', { 'x-request-id': 'lb-7f3a.42:1' })).headers.get('x-request-id')).toBe(
      'lb-7f3a.42:1',
    );
    for (const unfit of ['has spaces in it', 'x'.repeat(129), 'quote"d']) {
      expect((await api.get('/health', { 'x-request-id': unfit })).headers.get('x-request-id')).toMatch(UUID);
    }
  });

  it('lets browsers read it (CORS)', async () => {
    const response = await api.get('/health', { origin: 'http://localhost:5173' });
    expect(response.headers.get('access-control-expose-headers')?.toLowerCase()).toContain('x-request-id');
  });

  it('puts the request id in the lines the core logs while serving the request', async () => {
    await api.post('/v1/memories', { content: 'The Helios dashboard loads slowly.' });
    // A body of many packets: the request is read in the socket's context, and the handler must be back in its own.
    const conversation = Array.from({ length: 60 }, (_, i) => ({
      role: 'user',
      content: `Turn ${i}: look at the Helios dashboard. ${'More detail. '.repeat(1_000)}`,
    }));
    const recalled = await api.post(
      '/v1/memories/recall',
      { query: 'why is it slow?', context: conversation },
      { 'x-request-id': 'recall-with-failing-rewrite' },
    );
    expect(recalled.status).toBe(200);
    const warnings = logs.withMessage('query rewrite skipped');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ reqId: 'recall-with-failing-rewrite', level: 40 });
    // Fastify's own lines for the request carry the same id.
    expect(logs.lines.filter((line) => line.reqId === 'recall-with-failing-rewrite').map((line) => line.msg)).toEqual(
      expect.arrayContaining(['incoming request', 'query rewrite skipped', 'request completed']),
    );
  });

  it('names the task instead in the lines logged by background work', async () => {
    await server.drainTasks();
    const skipped = logs.withMessage('LLM refinement skipped');
    expect(skipped.length).toBeGreaterThan(0);
    for (const line of skipped) {
      expect(line).toMatchObject({ kind: 'memory.enrich', task: expect.any(Number) });
      expect(line.reqId).toBeUndefined();
    }
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLlmProvider } from '../../src/providers/llm/index.js';
import { startFakeOpenAI, type FakeLlmServer } from '../support/fake-llm-server.js';
import { startPeer, type TestPeer } from '../support/peer.js';
import { client } from '../support/server.js';

let fake: FakeLlmServer;
let peer: TestPeer;
let api: ReturnType<typeof client>;

beforeAll(async () => {
  fake = await startFakeOpenAI();
  peer = await startPeer({
    MEMD_PEER_LLM_ENABLED: 'true',
    MEMD_PEER_LLM_PROFILES: 'fast,smart',
    MEMD_PEER_LLM_FAST_BASE_URL: fake.baseUrl,
    MEMD_PEER_LLM_FAST_MODEL: 'qwen2.5-7b-instruct',
    MEMD_PEER_LLM_FAST_ALIASES: 'quick,gpt-4o-mini',
    MEMD_PEER_LLM_FAST_API_KEY: 'upstream-key',
    MEMD_PEER_LLM_SMART_BASE_URL: fake.baseUrl,
    MEMD_PEER_LLM_SMART_MODEL: 'llama-3.3-70b',
  });
  api = client(peer.url);
});
afterAll(async () => {
  await peer.stop();
  await fake.close();
});

const messages = [{ role: 'user', content: 'Say hello' }];

describe('language-model hosting (forwarding to profile upstreams)', () => {
  it('lists the profiles with their aliases and upstream models', async () => {
    const models = await api.get('/v1/models');
    expect(models.body).toEqual({
      object: 'list',
      data: [
        {
          id: 'fast',
          object: 'model',
          created: 0,
          owned_by: 'memd-peer',
          model: 'qwen2.5-7b-instruct',
          aliases: ['quick', 'gpt-4o-mini'],
          default: true,
        },
        {
          id: 'smart',
          object: 'model',
          created: 0,
          owned_by: 'memd-peer',
          model: 'llama-3.3-70b',
          aliases: [],
          default: false,
        },
      ],
    });
    expect((await api.get('/health/ready')).body.llm).toEqual({ enabled: true, profiles: ['fast', 'smart'] });
  });

  it('routes by model — profile, alias, upstream id, or the default — and forwards the payload unchanged but for the model', async () => {
    const sent = { model: 'quick', messages, temperature: 0.3, max_tokens: 20, metadata: { trace: 'abc' } };
    fake.script('Hello from the fast model');
    const answer = await api.post('/v1/chat/completions', sent);
    expect(answer.status).toBe(200);
    expect(answer.body.choices[0].message.content).toBe('Hello from the fast model');
    const received = fake.requests.at(-1)!;
    expect(received.path).toBe('/v1/chat/completions');
    expect(received.body).toEqual({ ...sent, model: 'qwen2.5-7b-instruct' });
    expect(received.headers.authorization).toBe('Bearer upstream-key');

    fake.script('smart', 'default');
    await api.post('/v1/chat/completions', { model: 'llama-3.3-70b', messages });
    expect(fake.requests.at(-1)!.body).toEqual({ model: 'llama-3.3-70b', messages });
    expect(fake.requests.at(-1)!.headers.authorization).toBeUndefined();
    await api.post('/v1/chat/completions', { messages });
    expect(fake.requests.at(-1)!.body.model).toBe('qwen2.5-7b-instruct');

    const before = fake.requests.length;
    const unknown = await api.post('/v1/chat/completions', { model: 'gpt-5', messages });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.message).toContain('available: fast, smart');
    expect(fake.requests.length).toBe(before);
    expect((await api.post('/v1/chat/completions', '{not json')).status).toBe(400);
  });

  it('passes a streamed answer through as server-sent events', async () => {
    fake.script('one two three');
    const response = await fetch(`${peer.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ model: 'fast', messages, stream: true }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const events = (await response.text()).split('\n\n').filter(Boolean);
    expect(events.at(-1)).toBe('data: [DONE]');
    const deltas = events.slice(0, -1).map((e) => JSON.parse(e.replace(/^data: /, '')).choices[0].delta.content ?? '');
    expect(deltas.join('')).toBe('one two three');
    expect(fake.requests.at(-1)!.body.stream).toBe(true);
  });

  it('forwards legacy completions to the upstream’s /completions and passes its errors through', async () => {
    const legacy = await api.post('/v1/completions', { model: 'smart', prompt: 'Once upon a time', max_tokens: 5 });
    // The fake serves chat only: its 404 comes back as it was sent.
    expect(legacy.status).toBe(404);
    expect(legacy.body.error.message).toContain('no route for POST /v1/completions');
    expect(fake.requests.at(-1)).toMatchObject({
      path: '/v1/completions',
      body: { model: 'llama-3.3-70b', prompt: 'Once upon a time', max_tokens: 5 },
    });

    fake.script({ status: 429, message: 'slow down', headers: { 'retry-after': '7' } });
    const limited = await api.post('/v1/chat/completions', { model: 'fast', messages });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('7');
    expect(limited.body.error.message).toBe('slow down');
    const load = (await api.get('/health/load')).body.providers.find((p: { name: string }) => p.name === 'fast');
    expect(load).toMatchObject({ kind: 'llm', model: 'qwen2.5-7b-instruct', in_flight: 0 });
    expect(load.failed).toBeGreaterThanOrEqual(1);
  });

  it('memd’s own openai language-model provider can use a peer profile', async () => {
    fake.script('Forty-two');
    const llm = createLlmProvider({
      provider: 'openai',
      baseUrl: `${peer.url}/v1`,
      model: 'fast',
      apiKey: undefined,
      timeoutMs: 5_000,
      maxRetries: 0,
    })!;
    expect((await llm.complete({ messages: [{ role: 'user', content: 'The answer?' }] })).text).toBe('Forty-two');
    expect(fake.requests.at(-1)!.body.model).toBe('qwen2.5-7b-instruct');
  });

  it('an unreachable upstream is a 502', async () => {
    const lonely = await startPeer({
      MEMD_PEER_LLM_ENABLED: 'true',
      MEMD_PEER_LLM_PROFILES: 'gone',
      MEMD_PEER_LLM_GONE_BASE_URL: 'http://127.0.0.1:9/v1',
      MEMD_PEER_LLM_GONE_MODEL: 'm',
    });
    try {
      const failed = await client(lonely.url).post('/v1/chat/completions', { messages });
      expect(failed.status).toBe(502);
      expect(failed.body.error).toMatchObject({
        type: 'upstream_error',
        message: expect.stringContaining("profile 'gone'"),
      });
    } finally {
      await lonely.stop();
    }
  });
});

describe('language-model hosting disabled', () => {
  it('answers 501 on every language-model route', async () => {
    const plain = await startPeer();
    try {
      const off = client(plain.url);
      for (const response of [
        await off.post('/v1/chat/completions', { model: 'x', messages }),
        await off.post('/v1/completions', { prompt: 'x' }),
        await off.get('/v1/models'),
      ]) {
        expect(response.status).toBe(501);
        expect(response.body.error).toMatchObject({
          type: 'not_implemented',
          message: expect.stringContaining('MEMD_PEER_LLM_ENABLED'),
        });
      }
    } finally {
      await plain.stop();
    }
  });
});

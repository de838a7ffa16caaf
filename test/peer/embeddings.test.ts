import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config.js';
import { loadPeerConfig } from '../../src/peer/config.js';
import { HashEmbeddingProvider } from '../../src/providers/embedding/hash.js';
import { OpenAiEmbeddingProvider } from '../../src/providers/embedding/openai.js';
import { HoldableEmbedder } from '../support/holdable-embedder.js';
import { startPeer, type TestPeer } from '../support/peer.js';
import { spawnServer } from '../support/process.js';
import { client, startServer } from '../support/server.js';

const hash = new HashEmbeddingProvider();
const vectorsOf = async (texts: string[]) => (await hash.embed(texts)).map((v) => Array.from(v));
const close = (values: number[]) => values.map((x) => expect.closeTo(x, 6));

describe('peer configuration', () => {
  it('binds to 127.0.0.1:61051 by default; MEMD_PEER_HOST and MEMD_PEER_PORT choose another address', () => {
    const defaults = loadPeerConfig({});
    expect(defaults).toMatchObject({
      host: '127.0.0.1',
      port: 61051,
      embedding: [{ provider: 'local' }],
      llm: { enabled: false, profiles: [] },
    });
    const chosen = loadPeerConfig({
      MEMD_PEER_HOST: '0.0.0.0',
      MEMD_PEER_PORT: '7100',
      MEMD_PEER_EMBEDDING_PROVIDERS: 'hash, transformers:Xenova/all-MiniLM-L6-v2',
    });
    expect(chosen).toMatchObject({
      host: '0.0.0.0',
      port: 7100,
      embedding: [{ provider: 'hash' }, { provider: 'transformers', model: 'Xenova/all-MiniLM-L6-v2' }],
    });
    expect(() => loadPeerConfig({ MEMD_PEER_EMBEDDING_PROVIDERS: 'magic' })).toThrow(ConfigError);
    expect(() => loadPeerConfig({ MEMD_PEER_LLM_ENABLED: 'true' })).toThrow(/MEMD_PEER_LLM_PROFILES/);
    expect(() => loadPeerConfig({ MEMD_PEER_LLM_ENABLED: 'true', MEMD_PEER_LLM_PROFILES: 'fast' })).toThrow(
      /MEMD_PEER_LLM_FAST_BASE_URL and MEMD_PEER_LLM_FAST_MODEL/,
    );
  });
});

describe('peer health and embeddings', () => {
  let peer: TestPeer;
  let api: ReturnType<typeof client>;
  const held = new HoldableEmbedder();

  beforeAll(async () => {
    peer = await startPeer({ MEMD_PEER_CONCURRENCY: '1' }, { embedders: [held] });
    api = client(peer.url);
  });
  afterAll(() => peer.stop());

  it('answers /health, /health/ready and /health/load', async () => {
    expect((await api.get('/health')).body).toEqual({ status: 'healthy' });
    const ready = await api.get('/health/ready');
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({
      status: 'ready',
      embedding: [{ name: 'hash', model: 'feature-hash-v1', dimensions: 256, state: 'ready', error: null }],
      ocr: null,
      llm: { enabled: false, profiles: [] },
    });
    expect((await api.get('/health/load')).body.providers).toEqual([
      {
        kind: 'embedding',
        name: 'hash',
        model: 'feature-hash-v1',
        in_flight: 0,
        queued: 0,
        capacity: 1,
        utilization: 0,
        completed: 0,
        failed: 0,
      },
    ]);
  });

  it('embeds like the provider it hosts, as floats or base64, chosen by provider name or model id', async () => {
    const texts = ['the cat sat on the mat', 'a completely different sentence'];
    const answer = await api.post('/v1/embeddings', { input: texts, model: 'hash' });
    expect(answer.status).toBe(200);
    const expected = await vectorsOf(texts);
    expect(answer.body).toMatchObject({
      object: 'list',
      model: 'feature-hash-v1',
      usage: { prompt_tokens: expect.any(Number) },
    });
    expect(answer.body.data.map((d: { index: number; embedding: number[] }) => [d.index, d.embedding])).toEqual([
      [0, close(expected[0]!)],
      [1, close(expected[1]!)],
    ]);

    const single = await api.post('/v1/embeddings', {
      input: 'the cat sat on the mat',
      model: 'feature-hash-v1',
      encoding_format: 'base64',
    });
    const bytes = Buffer.from(single.body.data[0].embedding, 'base64');
    expect(Array.from(new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4))).toEqual(
      close(expected[0]!),
    );
    // No model: the first provider.
    expect((await api.post('/v1/embeddings', { input: ['x'] })).body.data).toHaveLength(1);
  });

  it('refuses what it cannot serve, in OpenAI’s error shape', async () => {
    const unknown = await api.post('/v1/embeddings', { input: 'x', model: 'text-embedding-3-large' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toMatchObject({
      type: 'invalid_request_error',
      message: expect.stringContaining('available: hash'),
    });
    const tokens = await api.post('/v1/embeddings', { input: [[1, 2, 3]] });
    expect(tokens.status).toBe(400);
    expect(tokens.body.error.type).toBe('invalid_request_error');
    expect((await api.post('/v1/embeddings', { input: [] })).status).toBe(400);
    expect((await api.post('/v1/embeddings', { input: 'x', dimensions: 64 })).status).toBe(400);
    expect((await api.post('/v1/chat/completions', { model: 'any', messages: [] })).status).toBe(501);
  });

  it('reports requests in flight and waiting, per provider', async () => {
    const hold = held.holdCall(1);
    const first = api.post('/v1/embeddings', { input: 'first' });
    await hold.reached;
    const second = api.post('/v1/embeddings', { input: 'second' });
    let load = (await api.get('/health/load')).body.providers[0];
    for (let i = 0; i < 100 && load.queued === 0; i++) load = (await api.get('/health/load')).body.providers[0];
    expect(load).toMatchObject({ in_flight: 1, queued: 1, capacity: 1, utilization: 1 });
    hold.release();
    expect((await first).status).toBe(200);
    expect((await second).status).toBe(200);
    expect((await api.get('/health/load')).body.providers[0]).toMatchObject({
      in_flight: 0,
      queued: 0,
      utilization: 0,
    });
  });
});

describe('readiness while models load', () => {
  it('/health/ready is 503 until every provider has loaded, and embeddings wait for it', async () => {
    let loaded!: () => void;
    const gate = new Promise<void>((resolve) => (loaded = resolve));
    const slow = new (class extends HashEmbeddingProvider {
      override async init(): Promise<void> {
        await gate;
      }
    })();
    const peer = await startPeer({}, { embedders: [slow], waitForModels: false });
    try {
      const api = client(peer.url);
      const loading = await api.get('/health/ready');
      expect(loading.status).toBe(503);
      expect(loading.body).toMatchObject({ status: 'not_ready', embedding: [{ state: 'loading' }] });
      expect((await api.post('/v1/embeddings', { input: 'x' })).status).toBe(503);
      loaded();
      await peer.peer.ready();
      expect((await api.get('/health/ready')).status).toBe(200);
    } finally {
      await peer.stop();
    }
  });
});

describe('memd selects the peer through its openai embedding provider', () => {
  it('the provider pointed at the peer gives the hosted model’s vectors, and a memd server runs on it', async () => {
    const peer = await startPeer({ MEMD_PEER_API_KEY: 'peer-secret' });
    try {
      const provider = new OpenAiEmbeddingProvider({
        baseUrl: `${peer.url}/v1`,
        model: 'hash',
        apiKey: 'peer-secret',
        dimensions: undefined,
        timeoutMs: 5_000,
      });
      await provider.init();
      expect(provider.dimensions).toBe(256);
      const [vector] = await provider.embed(['peer embedded text']);
      expect(Array.from(vector!)).toEqual(close((await vectorsOf(['peer embedded text']))[0]!));
      const stranger = new OpenAiEmbeddingProvider({
        baseUrl: `${peer.url}/v1`,
        model: 'hash',
        apiKey: 'wrong',
        dimensions: undefined,
        timeoutMs: 5_000,
      });
      await expect(stranger.init()).rejects.toThrow(/HTTP 401/);

      const memd = await startServer({
        env: {
          MEMD_EMBEDDING_PROVIDER: 'openai',
          MEMD_EMBEDDING_BASE_URL: `${peer.url}/v1`,
          MEMD_EMBEDDING_MODEL: 'hash',
          MEMD_EMBEDDING_API_KEY: 'peer-secret',
        },
      });
      try {
        const api = client(memd.url);
        expect((await api.get('/health/ready')).body.services.embedder).toBe('openai/hash');
        const created = await api.post('/v1/memories', { content: 'Embedded by the peer process' });
        expect(created.status).toBe(201);
        const load = (await client(peer.url).get('/health/load', { authorization: 'Bearer peer-secret' })).body
          .providers[0];
        expect(load.completed).toBeGreaterThanOrEqual(2);
      } finally {
        await memd.stop();
      }
    } finally {
      await peer.stop();
    }
  });
});

describe('the peer process', () => {
  it('starts as `memd peer` with --host and --port (over MEMD_PEER_HOST: an address this machine does not have), serves, and stops cleanly on SIGTERM', async () => {
    const env = { MEMD_PEER_EMBEDDING_PROVIDERS: 'hash', MEMD_PEER_HOST: '203.0.113.1' };
    const peer = await spawnServer(env, {
      script: 'src/cli/main.ts',
      args: ['peer', '--host', '127.0.0.1', '--port', '0'],
      listening: 'memd peer listening',
    });
    try {
      expect(peer.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect((await client(peer.url).get('/health')).body).toEqual({ status: 'healthy' });
      expect(
        (await client(peer.url).post('/v1/embeddings', { input: 'from another process' })).body.data[0].embedding,
      ).toHaveLength(256);
    } finally {
      peer.child.kill('SIGTERM');
      expect(await peer.exited).toBe(0);
    }
  });
});

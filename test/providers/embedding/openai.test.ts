import { afterEach, describe, expect, it } from 'vitest';
import { AppError } from '../../../src/errors.js';
import { OpenAiEmbeddingProvider } from '../../../src/providers/embedding/openai.js';
import type { RetryPolicy } from '../../../src/providers/embedding/retry.js';
import { embeddingsReply, startFakeServer, type FakeServer, type Script } from './fake-openai-server.js';
import { cosine, expectUnitVectors } from './helpers.js';

const API_KEY = 'sk-test-0123456789abcdef';
const FAST_RETRIES: RetryPolicy = { attempts: 3, baseDelayMs: 5, maxDelayMs: 5_000 };
/** The fake's vectors: 16 numbers seeded by the text, so each text has its own recognisable vector. */
function vectorFor(text: string): number[] {
  let seed = 17;
  for (const char of text) seed = (seed * 31 + char.codePointAt(0)!) % 1_000_003;
  return Array.from({ length: 16 }, (_, k) => Math.sin(seed * (k + 1)));
}

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function providerAgainst(
  script: Script,
  overrides: { dimensions?: number; timeoutMs?: number; apiKey?: string | undefined } = {},
): Promise<OpenAiEmbeddingProvider> {
  server = await startFakeServer(script);
  const config = {
    model: 'text-embedding-test',
    baseUrl: `${server.baseUrl}/`,
    apiKey: API_KEY,
    dimensions: undefined,
    timeoutMs: 5_000,
    ...overrides,
  };
  return new OpenAiEmbeddingProvider(config, FAST_RETRIES);
}

const ok: Script = (request) => embeddingsReply(request, vectorFor);

async function failure(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

describe('openai embedding provider', () => {
  it('sends the OpenAI request shape with the bearer key and returns normalised vectors in input order', async () => {
    const provider = await providerAgainst(ok, { dimensions: 16 });
    await provider.init(); // dimensions configured: no probe
    expect(server!.requests).toHaveLength(0);

    const texts = ['first text', 'second, longer text about tea', 'third'];
    const vectors = await provider.embed(texts);
    const [request] = server!.requests;
    expect(request).toMatchObject({
      method: 'POST',
      url: '/v1/embeddings',
      body: { model: 'text-embedding-test', input: texts },
    });
    expect(request!.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(request!.headers['content-type']).toBe('application/json');
    expectUnitVectors(vectors, 16);
    texts.forEach((text, i) => {
      expect(cosine(vectors[i]!, vectorFor(text))).toBeCloseTo(1, 5);
    });
  });

  it('sends no authorization header without a key', async () => {
    const provider = await providerAgainst(ok, { apiKey: undefined, dimensions: 16 });
    await provider.embed(['hello']);
    expect(server!.requests[0]!.headers.authorization).toBeUndefined();
  });

  it('learns the dimensions with one probe call in init()', async () => {
    const provider = await providerAgainst(ok);
    expect(provider.dimensions).toBe(0);
    await provider.init();
    expect(provider.dimensions).toBe(16);
    expect(server!.requests).toHaveLength(1);
    await provider.init();
    expect(server!.requests).toHaveLength(1);
  });

  it('splits 300 inputs into requests of at most 128, keeping order', async () => {
    const provider = await providerAgainst(ok, { dimensions: 16 });
    const texts = Array.from({ length: 300 }, (_, i) => `memory number ${i}`);
    const vectors = await provider.embed(texts);
    expect(server!.requests.map((request) => (request.body.input as string[]).length)).toEqual([128, 128, 44]);
    expect(server!.requests.flatMap((request) => request.body.input)).toEqual(texts);
    texts.forEach((text, i) => {
      expect(cosine(vectors[i]!, vectorFor(text))).toBeCloseTo(1, 5);
    });
  });

  it('does not send blank texts and gives them the fixed vector e₀', async () => {
    const provider = await providerAgainst(ok, { dimensions: 16 });
    const vectors = await provider.embed(['', 'real text', '  ']);
    expect(server!.requests.map((request) => request.body.input)).toEqual([['real text']]);
    expect([vectors[0]![0], vectors[2]![0]]).toEqual([1, 1]);
    expectUnitVectors(vectors, 16);
    expect(await provider.embed([])).toEqual([]);
    expect(server!.requests).toHaveLength(1);
  });

  it('retries after a 429, waiting as long as Retry-After asks', async () => {
    const provider = await providerAgainst(
      (request, index) =>
        index === 0
          ? { status: 429, headers: { 'retry-after': '1' }, body: { error: { message: 'Rate limit reached' } } }
          : ok(request, index),
      { dimensions: 16 },
    );
    const started = Date.now();
    const vectors = await provider.embed(['hello']);
    expect(server!.requests).toHaveLength(2);
    expectUnitVectors(vectors, 16);
    // The policy's own backoff is 5 ms, so a wait of about a second can only come from Retry-After.
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
  });

  it('gives up after three 500s with an actionable provider_error that never shows the key', async () => {
    const body = `upstream exploded; key was ${API_KEY}; ${'x'.repeat(1_000)}`;
    const provider = await providerAgainst(() => ({ status: 500, body }), { dimensions: 16 });
    const error = await failure(provider.embed(['hello']));
    expect(server!.requests).toHaveLength(3);
    expect(error.code).toBe('provider_error');
    expect(error.statusCode).toBe(502);
    expect(error.message).toContain('HTTP 500');
    expect(error.message).toContain(`${server!.baseUrl}/embeddings`);
    expect(error.message).toContain('upstream exploded');
    expect(error.message).toContain('3 attempts');
    expect(error.message).not.toContain(API_KEY);
    expect(error.message).not.toContain('x'.repeat(250)); // the body excerpt is capped at 200 characters
  });

  it('does not retry a 401 and points at the API key setting', async () => {
    const provider = await providerAgainst(
      () => ({ status: 401, body: { error: { message: `Incorrect API key provided: ${API_KEY}` } } }),
      { dimensions: 16 },
    );
    const error = await failure(provider.embed(['hello']));
    expect(server!.requests).toHaveLength(1);
    expect(error.code).toBe('provider_error');
    expect(error.message).toContain('HTTP 401');
    expect(error.message).toContain('MEMD_EMBEDDING_API_KEY');
    expect(error.message).not.toContain(API_KEY);
  });

  it('times out a server that never answers, after three attempts', async () => {
    const provider = await providerAgainst(() => 'hang', { dimensions: 16, timeoutMs: 150 });
    const error = await failure(provider.embed(['hello']));
    expect(error.code).toBe('provider_error');
    expect(error.message).toMatch(/timed out after 150 ms/);
    expect(server!.requests).toHaveLength(3);
  });

  it('reports an unreachable endpoint', async () => {
    const provider = await providerAgainst(ok, { dimensions: 16 });
    await server!.close();
    const error = await failure(provider.embed(['hello']));
    expect(error.code).toBe('provider_error');
    expect(error.message).toContain('ECONNREFUSED');
  });

  it('rejects answers that are not OpenAI-shaped or have the wrong width', async () => {
    const wrongCount = await providerAgainst(
      () => ({ status: 200, body: { data: [{ index: 0, embedding: vectorFor('a') }] } }),
      { dimensions: 16 },
    );
    expect((await failure(wrongCount.embed(['a', 'b']))).message).toContain('1 embeddings for 2 inputs');
    await server!.close();

    const notJson = await providerAgainst(() => ({ status: 200, body: '<html>proxy login</html>' }), {
      dimensions: 16,
    });
    expect((await failure(notJson.embed(['a']))).message).toContain('not JSON');
    await server!.close();

    const narrower = await providerAgainst(ok, { dimensions: 8 });
    expect((await failure(narrower.embed(['a']))).message).toContain('16-dimensional vectors where 8 were expected');
  });

  it('refuses to start without a base URL', () => {
    expect(
      () =>
        new OpenAiEmbeddingProvider({
          model: undefined,
          baseUrl: undefined,
          apiKey: undefined,
          dimensions: undefined,
          timeoutMs: 1_000,
        }),
    ).toThrow(/MEMD_EMBEDDING_BASE_URL/);
  });
});

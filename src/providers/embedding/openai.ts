import type { EmbeddingConfig } from '../../config.js';
import { AppError } from '../../errors.js';
import { inBatches } from './batching.js';
import { onceUntilFailure } from './lifecycle.js';
import { parseRetryAfter, RetryableError, withRetries, type RetryPolicy } from './retry.js';
import type { EmbeddingProvider } from './types.js';
import { embedSkippingBlanks, toUnitVector } from './vector.js';

export const DEFAULT_OPENAI_MODEL = 'text-embedding-3-small';
/** OpenAI accepts up to 2048 inputs per request; smaller requests keep each one well inside the timeout. */
const MAX_INPUTS_PER_REQUEST = 128;
const DEFAULT_RETRY_POLICY: RetryPolicy = { attempts: 3, baseDelayMs: 500, maxDelayMs: 30_000 };
const BODY_EXCERPT_CHARS = 200;

type OpenAiConfig = Pick<EmbeddingConfig, 'model' | 'baseUrl' | 'apiKey' | 'dimensions' | 'timeoutMs'>;

/** Any server that speaks OpenAI's `POST /embeddings` (OpenAI, Azure-style gateways, vLLM, Ollama, LiteLLM…). */
export class OpenAiEmbeddingProvider implements EmbeddingProvider {
  readonly name = 'openai';
  readonly model: string;
  readonly #endpoint: string;
  /** The endpoint as shown in error messages: no credentials, no query string. */
  readonly #shownEndpoint: string;
  readonly #apiKey: string | undefined;
  readonly #timeoutMs: number;
  readonly #retryPolicy: RetryPolicy;
  #dimensions: number | undefined;
  readonly #learnDimensions = onceUntilFailure(async () => {
    if (this.#dimensions === undefined) await this.#request(['dimension probe']);
  });

  constructor(config: OpenAiConfig, retryPolicy: RetryPolicy = DEFAULT_RETRY_POLICY) {
    if (config.baseUrl === undefined) {
      throw new AppError(
        'provider_unavailable',
        'The openai embedding provider needs MEMD_EMBEDDING_BASE_URL (e.g. https://api.openai.com/v1)',
      );
    }
    let url: URL;
    try {
      url = new URL(`${config.baseUrl.replace(/\/+$/, '')}/embeddings`);
    } catch {
      throw new AppError('provider_unavailable', `MEMD_EMBEDDING_BASE_URL is not a valid URL: '${config.baseUrl}'`);
    }
    this.#endpoint = url.href;
    url.username = '';
    url.password = '';
    url.search = '';
    this.#shownEndpoint = url.href;
    this.model = config.model ?? DEFAULT_OPENAI_MODEL;
    this.#apiKey = config.apiKey;
    this.#timeoutMs = config.timeoutMs;
    this.#dimensions = config.dimensions;
    this.#retryPolicy = retryPolicy;
  }

  /** 0 until known: configured, or learned from the probe call in `init()`. */
  get dimensions(): number {
    return this.#dimensions ?? 0;
  }

  /** Learns the vector width with one small request, unless MEMD_EMBEDDING_DIMENSIONS gave it. */
  async init(): Promise<void> {
    await this.#learnDimensions();
  }

  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    if (texts.length === 0) return [];
    await this.init();
    return embedSkippingBlanks(
      texts,
      () => this.dimensions,
      async (nonBlank) => {
        // One request at a time: gentler on rate limits, and a failure stops before spending more quota.
        const vectors: Float32Array[] = [];
        for (const batch of inBatches(nonBlank, MAX_INPUTS_PER_REQUEST)) vectors.push(...(await this.#request(batch)));
        return vectors;
      },
    );
  }

  async close(): Promise<void> {}

  async #request(inputs: string[]): Promise<Float32Array[]> {
    let body: unknown;
    try {
      body = await withRetries(this.#retryPolicy, () => this.#attempt(inputs));
    } catch (error) {
      if (!(error instanceof RetryableError)) throw error;
      const retryAfter = error.retryAfterMs === undefined ? undefined : Math.ceil(error.retryAfterMs / 1000);
      throw new AppError('provider_error', `${error.message} (gave up after ${this.#retryPolicy.attempts} attempts)`, {
        cause: error,
        ...(retryAfter === undefined ? {} : { retryAfter }),
      });
    }
    return this.#readVectors(body, inputs.length);
  }

  /** One HTTP exchange: the parsed JSON body, a RetryableError, or an AppError that retrying cannot fix. */
  async #attempt(inputs: string[]): Promise<unknown> {
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
    if (this.#apiKey !== undefined) headers.authorization = `Bearer ${this.#apiKey}`;
    let status: number;
    let text: string;
    let retryAfterMs: number | undefined;
    try {
      // One deadline for the whole exchange, body included: a server may stall after the headers.
      const signal = AbortSignal.timeout(this.#timeoutMs);
      const response = await fetch(this.#endpoint, {
        method: 'POST',
        headers,
        body: JSON.stringify({ model: this.model, input: inputs }),
        signal,
      });
      status = response.status;
      retryAfterMs = parseRetryAfter(response.headers.get('retry-after'));
      text = await response.text();
    } catch (error) {
      throw new RetryableError(
        `Embedding request to ${this.#shownEndpoint} ${describeNetworkError(error, this.#timeoutMs)}`,
      );
    }
    if (status === 429 || status >= 500) throw new RetryableError(this.#httpFailure(status, text), retryAfterMs);
    if (status < 200 || status > 299)
      throw new AppError('provider_error', `${this.#httpFailure(status, text)}${hintFor(status)}`);
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw new AppError(
        'provider_error',
        `Embedding endpoint ${this.#shownEndpoint} answered HTTP ${status} with a body that is not JSON: ${this.#excerpt(text)}`,
      );
    }
  }

  #httpFailure(status: number, body: string): string {
    return `Embedding request to ${this.#shownEndpoint} failed with HTTP ${status}: ${this.#excerpt(body)}`;
  }

  /** The start of an upstream body, one line, with the API key masked in case the server echoes it. */
  #excerpt(body: string): string {
    let excerpt = body.replace(/\s+/g, ' ').trim();
    if (this.#apiKey) excerpt = excerpt.split(this.#apiKey).join('[api key]');
    return excerpt.length > BODY_EXCERPT_CHARS ? `${excerpt.slice(0, BODY_EXCERPT_CHARS)}…` : excerpt || '(empty body)';
  }

  /** `data[].embedding`, put in `index` order, checked for count and width, normalised. */
  #readVectors(body: unknown, expected: number): Float32Array[] {
    const fail = (problem: string): never => {
      throw new AppError(
        'provider_error',
        `Embedding endpoint ${this.#shownEndpoint} answered with ${problem}; is it OpenAI-compatible and is MEMD_EMBEDDING_MODEL an embedding model?`,
      );
    };
    const data = (body as { data?: unknown } | null)?.data;
    if (!Array.isArray(data)) return fail('no `data` array');
    if (data.length !== expected) return fail(`${data.length} embeddings for ${expected} inputs`);
    const vectors = new Array<Float32Array | undefined>(expected);
    for (const [position, item] of (data as unknown[]).entries()) {
      // Servers that omit `index` return the embeddings in input order.
      const { index = position, embedding } = (item ?? {}) as { index?: unknown; embedding?: unknown };
      if (
        typeof index !== 'number' ||
        !Number.isInteger(index) ||
        index < 0 ||
        index >= expected ||
        vectors[index] !== undefined
      ) {
        return fail(`a missing, duplicate or out-of-range index (${String(index)})`);
      }
      if (!Array.isArray(embedding) || !embedding.every((value) => typeof value === 'number'))
        return fail('an embedding that is not an array of numbers');
      this.#dimensions ??= embedding.length;
      if (embedding.length !== this.#dimensions) {
        return fail(
          `${embedding.length}-dimensional vectors where ${this.#dimensions} were expected (MEMD_EMBEDDING_DIMENSIONS or the first answer)`,
        );
      }
      vectors[index] = toUnitVector(embedding as number[], `Embedding endpoint ${this.#shownEndpoint}`);
    }
    return vectors as Float32Array[];
  }
}

function describeNetworkError(error: unknown, timeoutMs: number): string {
  if (error instanceof Error && error.name === 'TimeoutError')
    return `timed out after ${timeoutMs} ms (MEMD_EMBEDDING_TIMEOUT_MS)`;
  // undici reports "fetch failed" and puts the useful part (ECONNREFUSED, ENOTFOUND…) in `cause`.
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  const code = (cause as { code?: unknown } | null)?.code;
  return `failed: ${typeof code === 'string' ? `${code} ` : ''}${cause instanceof Error ? cause.message : String(cause)}`;
}

function hintFor(status: number): string {
  if (status === 401 || status === 403) return ' (check MEMD_EMBEDDING_API_KEY)';
  if (status === 404)
    return ' (check MEMD_EMBEDDING_BASE_URL, which should end before /embeddings, and MEMD_EMBEDDING_MODEL)';
  return '';
}

import { describe, expect, it } from 'vitest';
import {
  BadRequestError,
  ConflictError,
  ConnectionError,
  MemdError,
  NotImplementedError,
  RateLimitedError,
  ServerError,
  ServiceUnavailableError,
  ValidationError,
} from '../../packages/client/src/index.js';
import { errorFromResponse } from '../../packages/client/src/errors.js';
import { parseLines, toStream } from '../../packages/client/src/ndjson.js';
import { fillPath } from '../../packages/client/src/operations.js';
import { DEFAULT_RETRY, parseRetryAfter, retryDelay } from '../../packages/client/src/retry.js';
import { queryString } from '../../packages/client/src/transport.js';

const streamOf = (...chunks: Uint8Array[]) =>
  new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
const collect = async <T>(lines: AsyncIterable<T>) => {
  const all: T[] = [];
  for await (const line of lines) all.push(line);
  return all;
};

describe('errorFromResponse', () => {
  const body = (status: number, code: string) => ({
    statusCode: status,
    error: 'E',
    message: `m${status}`,
    code,
    details: [{ path: '/body/x', message: 'bad' }],
  });

  it('picks the class by status and keeps code, message and details', () => {
    const cases: Array<[number, new (...args: never[]) => MemdError]> = [
      [400, BadRequestError],
      [422, ValidationError],
      [409, ConflictError],
      [429, RateLimitedError],
      [500, ServerError],
      [501, NotImplementedError],
      [502, ServerError],
      [503, ServiceUnavailableError],
      [418, MemdError],
    ];
    for (const [status, ErrorClass] of cases) {
      const error = errorFromResponse(status, body(status, 'some_code'), undefined);
      expect(error, String(status)).toBeInstanceOf(ErrorClass);
      expect(error).toMatchObject({
        status,
        code: 'some_code',
        message: `m${status}`,
        details: [{ path: '/body/x', message: 'bad' }],
      });
    }
  });

  it('takes retryAfter from the header first, then the body', () => {
    expect(errorFromResponse(429, { ...body(429, 'rate_limited'), retry_after: 7 }, 3)).toMatchObject({
      retryAfter: 3,
    });
    expect(errorFromResponse(429, { ...body(429, 'rate_limited'), retry_after: 7 }, undefined)).toMatchObject({
      retryAfter: 7,
    });
  });

  it('reads a body that is not memd’s (a proxy’s page) as the message', () => {
    const error = errorFromResponse(502, '<html>Bad gateway</html>', undefined);
    expect(error).toBeInstanceOf(ServerError);
    expect(error).toMatchObject({ code: 'http_502', message: '<html>Bad gateway</html>', details: [] });
    expect(errorFromResponse(500, undefined, undefined).message).toBe('HTTP 500');
  });
});

describe('retryDelay', () => {
  const policy = { ...DEFAULT_RETRY, baseDelayMs: 100, maxDelayMs: 1000, maxRetryAfterMs: 5000 };
  const failed = (
    error: MemdError,
    extra: { attempt?: number; method?: string; idempotent?: boolean; replayable?: boolean } = {},
  ) => ({
    attempt: 0,
    method: 'POST',
    idempotent: false,
    replayable: true,
    error,
    ...extra,
  });
  const unavailable = (code: string) => errorFromResponse(503, { message: 'x', code }, undefined);
  const limited = (retryAfter: number | undefined) =>
    errorFromResponse(429, { message: 'x', code: 'rate_limited' }, retryAfter);
  const cut = new ConnectionError('cut', { status: 0, code: 'connection_error' });

  it('backs off exponentially with full jitter, up to the maximum step', () => {
    expect(retryDelay(policy, failed(unavailable('not_ready'), { attempt: 0 }), () => 1)).toBe(100);
    expect(retryDelay(policy, failed(unavailable('not_ready'), { attempt: 2 }), () => 1)).toBe(400);
    expect(retryDelay(policy, failed(unavailable('not_ready'), { attempt: 2 }), () => 0.5)).toBe(200);
    expect(retryDelay({ ...policy, retries: 10 }, failed(unavailable('not_ready'), { attempt: 6 }), () => 1)).toBe(
      1000,
    );
  });

  it('waits at least the Retry-After, and gives up when it is longer than the policy accepts', () => {
    expect(retryDelay(policy, failed(limited(2)), () => 1)).toBe(2000);
    expect(retryDelay(policy, failed(limited(0)), () => 1)).toBe(100);
    expect(retryDelay(policy, failed(limited(6)))).toBeUndefined();
  });

  it('stops after the configured retries, and never replays a consumed stream', () => {
    expect(retryDelay(policy, failed(limited(undefined), { attempt: 3 }))).toBeUndefined();
    expect(retryDelay(policy, failed(limited(undefined), { replayable: false }))).toBeUndefined();
  });

  it('retries a connection failure only for idempotent calls, and lasting 503s and other errors never', () => {
    expect(retryDelay(policy, failed(cut))).toBeUndefined();
    expect(retryDelay(policy, failed(cut, { method: 'PUT' }))).toBeDefined();
    expect(retryDelay(policy, failed(cut, { idempotent: true }))).toBeDefined();
    expect(retryDelay(policy, failed(unavailable('provider_unavailable')))).toBeUndefined();
    expect(retryDelay(policy, failed(errorFromResponse(500, undefined, undefined), { method: 'GET' }))).toBeUndefined();
  });
});

describe('parseRetryAfter', () => {
  it('reads seconds and HTTP dates', () => {
    expect(parseRetryAfter('12')).toBe(12);
    expect(parseRetryAfter('1.5')).toBe(1.5);
    expect(parseRetryAfter(new Date(10_000 + 30_000).toUTCString(), 10_000)).toBe(30);
    expect(parseRetryAfter(new Date(0).toUTCString(), 10_000)).toBe(0);
    expect(parseRetryAfter(null)).toBeUndefined();
    expect(parseRetryAfter('soon')).toBeUndefined();
  });
});

describe('queryString and fillPath', () => {
  it('repeats array values, leaves absent ones out, writes the rest as text', () => {
    expect(
      queryString({ type: ['semantic', 'episodic'], limit: 5, hard: false, cursor: undefined, user_id: null }),
    ).toBe('?type=semantic&type=episodic&limit=5&hard=false');
    expect(queryString({})).toBe('');
    expect(queryString({ q: 'a b&c' })).toBe('?q=a+b%26c');
  });

  it('encodes path parameters; a wildcard keeps its slashes', () => {
    expect(fillPath('/v1/memories/{memory_id}', ['a/b c'])).toBe('/v1/memories/a%2Fb%20c');
    expect(fillPath('/v1/skills/{skill_id}/files/{*}', ['sk_1', 'docs/a b.md'])).toBe(
      '/v1/skills/sk_1/files/docs/a%20b.md',
    );
    expect(() => fillPath('/v1/memories/{memory_id}', [''])).toThrow(TypeError);
  });
});

describe('NDJSON', () => {
  it('parses lines split across chunks, multi-byte characters split too, and skips blank lines', async () => {
    const bytes = new TextEncoder().encode('{"a":"é"}\n\n{"b":2}\n{"c":3}');
    const chunks = [bytes.slice(0, 7), bytes.slice(7, 13), bytes.slice(13)]; // the first cut is inside the é
    expect(await collect(parseLines(streamOf(...chunks)))).toEqual([{ a: 'é' }, { b: 2 }, { c: 3 }]);
  });

  it('sends objects as JSON lines, text as lines, bytes as they are, reading the source only as the stream is read', async () => {
    let produced = 0;
    async function* source() {
      for (const item of [{ a: 1 }, 'text line', new TextEncoder().encode('raw\n')]) {
        produced++;
        yield item;
      }
    }
    const stream = toStream(source());
    const reader = stream.getReader();
    const decoder = new TextDecoder();
    let text = decoder.decode((await reader.read()).value);
    expect(produced).toBeLessThan(3);
    for (let next = await reader.read(); !next.done; next = await reader.read()) text += decoder.decode(next.value);
    expect(text).toBe('{"a":1}\ntext line\nraw\n');
    expect(await new Response(toStream([{ a: 1 }, 'x\n'])).text()).toBe('{"a":1}\nx\n');
  });
});

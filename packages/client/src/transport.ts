import { ConnectionError, errorFromResponse, MemdError, TimeoutError } from './errors.js';
import { DEFAULT_RETRY, parseRetryAfter, retryDelay, type RetryOptions, type RetryPolicy } from './retry.js';

export interface ClientOptions {
  /** Where memd listens, e.g. `http://localhost:61001` (the client adds `/v1/…`). */
  baseUrl: string;
  /** Sent as `Authorization: Bearer …` (memd with MEMD_ADMIN_KEY set needs one). */
  apiKey?: string;
  /** Sent as `X-Workspace-ID`: the workspace of every call that does not name one. */
  workspaceId?: string;
  /** Sent as `X-Session-ID`: see `MemdClient.withSession`. */
  sessionId?: string;
  /** Per attempt, until the response is read (a streamed export: until its first bytes). Default 30000. */
  timeoutMs?: number;
  retry?: RetryOptions;
  /** Sent with every request. */
  headers?: Record<string, string>;
  /** Default: the global fetch. */
  fetch?: typeof fetch;
}

/** What every call accepts besides its own input. */
export interface CallOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
  headers?: Record<string, string>;
  retry?: RetryOptions;
}

/** A successful answer. */
export interface Answer<T> {
  data: T;
  status: number;
  headers: Headers;
}

export type RequestBody =
  | { json: unknown }
  | { form: FormData }
  /** Sent as it is read: not replayable, so never retried. */
  | { stream: ReadableStream<Uint8Array>; contentType: string }
  /** Sent as it is, under the content type the call's headers give (see `MemdClient.request`). */
  | { raw: RawBody };

/** Text or bytes sent as they are (a stream is not replayable, so never retried). */
export type RawBody = string | Uint8Array | Blob | ReadableStream<Uint8Array>;

export type Read = 'json' | 'text' | 'bytes' | 'stream';

export interface TransportRequest extends CallOptions {
  method: string;
  /** Filled in and encoded, e.g. `/v1/memories/mem_1`. */
  path: string;
  query?: Record<string, unknown> | undefined;
  body?: RequestBody | undefined;
  read: Read;
  idempotent?: boolean;
  /**
   * Statuses that are answers rather than failures (a 503 from /health/ready carries the readiness); `'every'`: a
   * failure is answered (its body read as JSON or text) once the retries are spent, instead of thrown.
   */
  answers?: readonly number[] | 'every';
}

const DEFAULT_TIMEOUT_MS = 30_000;

/** Header names in lower case, so that a caller's `Content-Type` replaces ours rather than joining it. */
const lowerCased = (headers: Record<string, string> | undefined): Record<string, string> =>
  Object.fromEntries(Object.entries(headers ?? {}).map(([name, value]) => [name.toLowerCase(), value]));

/** Query values as memd reads them: arrays as repeated keys, absent values left out. */
export function queryString(query: Record<string, unknown> | undefined): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    for (const item of Array.isArray(value) ? value : [value]) {
      if (item === undefined || item === null) continue;
      params.append(key, typeof item === 'object' ? JSON.stringify(item) : String(item));
    }
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

const sleep = (ms: number, signal: AbortSignal | undefined) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });

/** `application/json` and its `+json` kin; not NDJSON, whose lines are no one JSON text. */
const JSON_MEDIA = /^application\/([\w.-]+\+)?json\s*(;|$)/i;

/** A body as text, JSON when it says so; undefined when there is none. */
async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text === '') return undefined;
  if (!JSON_MEDIA.test(response.headers.get('content-type') ?? '')) return text;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

async function read(response: Response, how: Read): Promise<unknown> {
  if (how === 'stream') return response.body;
  if (how === 'bytes') return new Uint8Array(await response.arrayBuffer());
  if (how === 'text') return response.text();
  return readBody(response);
}

/** HTTP for the client: default headers, a timeout per attempt, typed errors, retries by the policy. */
export class Transport {
  readonly #baseUrl: string;
  readonly #headers: Record<string, string>;
  readonly #timeoutMs: number;
  readonly #retry: RetryPolicy;
  readonly #fetch: typeof fetch;

  constructor(options: ClientOptions) {
    this.#baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.#headers = {
      ...lowerCased(options.headers),
      ...(options.apiKey && { authorization: `Bearer ${options.apiKey}` }),
      ...(options.workspaceId && { 'x-workspace-id': options.workspaceId }),
      ...(options.sessionId && { 'x-session-id': options.sessionId }),
    };
    this.#timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.#retry = { ...DEFAULT_RETRY, ...options.retry };
    this.#fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  }

  async send<T>(request: TransportRequest): Promise<Answer<T>> {
    const policy = { ...this.#retry, ...request.retry };
    const replayable = !(
      request.body &&
      ('stream' in request.body || ('raw' in request.body && isStream(request.body.raw)))
    );
    for (let attempt = 0; ; attempt++) {
      let failure: MemdError;
      let answered: Answer<T> | undefined;
      try {
        answered = await this.#attempt<T>(request);
        if (answered.status < 400 || request.answers !== 'every') return answered;
        failure = errorFromResponse(
          answered.status,
          answered.data,
          parseRetryAfter(answered.headers.get('retry-after')),
        );
      } catch (error) {
        if (!(error instanceof MemdError)) throw error;
        failure = error;
      }
      const delay = retryDelay(policy, {
        attempt,
        error: failure,
        method: request.method.toUpperCase(),
        idempotent: request.idempotent ?? false,
        replayable,
      });
      if (delay === undefined) {
        if (answered) return answered;
        throw failure;
      }
      await sleep(delay, request.signal);
    }
  }

  async #attempt<T>(request: TransportRequest): Promise<Answer<T>> {
    const { signal } = request;
    signal?.throwIfAborted();
    const method = request.method.toUpperCase();
    const timeoutMs = request.timeoutMs ?? this.#timeoutMs;
    const controller = new AbortController();
    const onAbort = () => controller.abort(signal!.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    let streaming = false;
    try {
      const response = await this.#fetch(`${this.#baseUrl}${request.path}${queryString(request.query)}`, {
        method,
        headers: { ...this.#headers, ...this.#contentType(request.body), ...lowerCased(request.headers) },
        signal: controller.signal,
        ...this.#body(request.body),
      });
      if (!response.ok) {
        const body = await readBody(response);
        const answered = request.answers === 'every' || request.answers?.includes(response.status);
        if (!answered)
          throw errorFromResponse(response.status, body, parseRetryAfter(response.headers.get('retry-after')));
        return { data: body as T, status: response.status, headers: response.headers };
      }
      streaming = request.read === 'stream';
      return { data: (await read(response, request.read)) as T, status: response.status, headers: response.headers };
    } catch (error) {
      if (error instanceof MemdError) throw error;
      if (signal?.aborted) throw signal.reason;
      const what = `${method} ${request.path}`;
      if (timedOut)
        throw new TimeoutError(`${what}: no answer within ${timeoutMs} ms`, {
          status: 0,
          code: 'timeout',
          cause: error,
        });
      throw new ConnectionError(`${what}: ${describe(error)}`, { status: 0, code: 'connection_error', cause: error });
    } finally {
      clearTimeout(timer);
      // A stream being read stays cancellable by the caller's signal.
      if (!streaming) signal?.removeEventListener('abort', onAbort);
    }
  }

  #contentType(body: RequestBody | undefined): Record<string, string> {
    if (!body) return {};
    if ('json' in body) return { 'content-type': 'application/json' };
    if ('stream' in body) return { 'content-type': body.contentType };
    return {}; // FormData sets its own, with the boundary
  }

  #body(body: RequestBody | undefined): RequestInit {
    if (!body) return {};
    if ('json' in body) return { body: JSON.stringify(body.json) };
    if ('form' in body) return { body: body.form };
    const sent = 'raw' in body ? body.raw : body.stream;
    // Node's fetch sends a stream only half-duplex, and says so explicitly.
    return isStream(sent) ? ({ body: sent, duplex: 'half' } as RequestInit) : { body: sent as RequestInit['body'] };
  }
}

const isStream = (body: unknown): body is ReadableStream<Uint8Array> =>
  typeof (body as ReadableStream | null)?.getReader === 'function';

/** The cause of a failed fetch, e.g. `connect ECONNREFUSED 127.0.0.1:1`. */
function describe(error: unknown): string {
  const cause = (error as { cause?: { message?: string; code?: string } }).cause;
  return cause?.message ?? cause?.code ?? (error as Error).message ?? String(error);
}

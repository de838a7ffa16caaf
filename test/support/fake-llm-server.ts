/**
 * Local stand-ins for the OpenAI-compatible, Anthropic and Gemini APIs, for tests of anything that
 * calls a language model. Each server answers from a script (a queue of replies, then a fallback
 * function) and records every request it sees, including ones to paths it does not serve.
 *
 *   const fake = await startFakeOpenAI();
 *   fake.script('first answer', { status: 429 }, (req) => `echo ${req.messages.at(-1)?.content}`);
 *   const llm = createLlmProvider({ provider: 'openai', baseUrl: fake.baseUrl, model: 'm', ... });
 *   ...
 *   expect(fake.requests[0].messages).toEqual([{ role: 'system', content: '…' }, { role: 'user', content: '…' }]);
 *   await fake.close();
 *
 * A string reply to an OpenAI request with `stream: true` is sent as server-sent events (one chunk per word, then
 * `data: [DONE]`); every other answer is a single JSON body.
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { anthropicDialect, googleDialect, openAIDialect, type Dialect, type FakeMessage } from './fake-llm-dialects.js';

export type { FakeMessage } from './fake-llm-dialects.js';

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The parsed JSON body ({} when there was none). */
  body: Record<string, unknown>;
  /** From the body (OpenAI, Anthropic) or the path (Gemini); undefined for unserved paths. */
  model: string | undefined;
  /** The conversation in a provider-neutral shape, system prompt first. */
  messages: FakeMessage[];
}

/**
 * What the fake answers:
 * - a string or `{ text }`: a successful completion (token counts default to length / 4);
 * - `{ status }`: an error in the API's own error format (`body` replaces it verbatim, `headers` adds e.g. retry-after);
 * - `{ hang: true }`: never answers (until `close()`);
 * - `{ disconnect: true }`: drops the connection without a response, like a crashed upstream.
 * `delayMs` postpones a completion or an error.
 */
export type FakeReply =
  | string
  | { text: string; inputTokens?: number; outputTokens?: number; delayMs?: number }
  | { status: number; message?: string; body?: unknown; headers?: Record<string, string>; delayMs?: number }
  | { hang: true }
  | { disconnect: true };

export type FakeResponder = (request: RecordedRequest) => FakeReply | Promise<FakeReply>;

export interface FakeLlmServerOptions {
  /** Initial script; same as calling `script(...replies)`. */
  replies?: (FakeReply | FakeResponder)[];
  /** Answers once the script is used up; by default such a request gets a 500 that says so. */
  respond?: FakeResponder;
}

export interface FakeLlmServer {
  /** Give this to the provider as its base URL (MEMD_LLM_BASE_URL). */
  baseUrl: string;
  /** Every request received, in order. */
  requests: RecordedRequest[];
  /** Queues replies, each used by one request; a function sees the request it answers. */
  script(...replies: (FakeReply | FakeResponder)[]): void;
  /** Stops the server and drops open connections, hanging ones included. */
  close(): Promise<void>;
}

export const startFakeOpenAI = (options?: FakeLlmServerOptions): Promise<FakeLlmServer> =>
  startFake(openAIDialect, options);
export const startFakeAnthropic = (options?: FakeLlmServerOptions): Promise<FakeLlmServer> =>
  startFake(anthropicDialect, options);
export const startFakeGoogle = (options?: FakeLlmServerOptions): Promise<FakeLlmServer> =>
  startFake(googleDialect, options);

async function startFake(dialect: Dialect, options: FakeLlmServerOptions = {}): Promise<FakeLlmServer> {
  const requests: RecordedRequest[] = [];
  const queue = [...(options.replies ?? [])];
  const closing = new AbortController();
  const nothingScripted: FakeResponder = () => ({
    status: 500,
    message: `fake ${dialect.name} server: nothing scripted for request #${requests.length}`,
  });

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const body = parseBody(await readBody(req));
    const path = new URL(req.url ?? '/', 'http://fake').pathname;
    const route = req.method === 'POST' ? dialect.route(path, body) : undefined;
    const recorded: RecordedRequest = {
      method: req.method ?? 'GET',
      path,
      headers: req.headers,
      body,
      model: route?.model,
      messages: route ? dialect.conversation(body) : [],
    };
    requests.push(recorded);
    if (!route)
      return sendJson(
        res,
        404,
        dialect.error(404, `fake ${dialect.name} server: no route for ${recorded.method} ${path}`),
      );

    const next = queue.shift() ?? options.respond ?? nothingScripted;
    const reply = typeof next === 'function' ? await next(recorded) : next;
    if (typeof reply === 'string' && body.stream === true && dialect.stream)
      return sendEvents(res, dialect.stream(reply, route.model));
    if (typeof reply === 'string')
      return sendJson(res, 200, dialect.answer(reply, estimateUsage(recorded, reply), route.model));
    if ('hang' in reply) return; // closeAllConnections() in close() ends it
    if ('disconnect' in reply) return void req.socket.destroy();

    if (reply.delayMs) await sleep(reply.delayMs, undefined, { signal: closing.signal }).catch(() => undefined);
    if (closing.signal.aborted || res.destroyed) return;
    if ('text' in reply) {
      const usage = estimateUsage(recorded, reply.text);
      const answer = { input: reply.inputTokens ?? usage.input, output: reply.outputTokens ?? usage.output };
      return sendJson(res, 200, dialect.answer(reply.text, answer, route.model));
    }
    const errorBody =
      'body' in reply
        ? reply.body
        : dialect.error(reply.status, reply.message ?? `fake ${dialect.name} error ${reply.status}`);
    sendJson(res, reply.status, errorBody, reply.headers);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent)
        sendJson(res, 500, dialect.error(500, `fake ${dialect.name} server failed: ${String(error)}`));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    baseUrl: `http://127.0.0.1:${port}${dialect.basePath}`,
    requests,
    script: (...replies) => void queue.push(...replies),
    close: async () => {
      closing.abort();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function parseBody(raw: string): Record<string, unknown> {
  if (raw === '') return {};
  const value: unknown = JSON.parse(raw);
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

function sendEvents(res: ServerResponse, events: unknown[]): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  for (const event of events) res.write(`data: ${JSON.stringify(event)}\n\n`);
  res.end('data: [DONE]\n\n');
}

/** Rough but deterministic counts (about four characters a token), so usage is never zero by accident. */
function estimateUsage(request: RecordedRequest, answer: string): { input: number; output: number } {
  const promptChars = request.messages.reduce((total, message) => total + message.content.length, 0);
  return { input: Math.ceil(promptChars / 4), output: Math.ceil(answer.length / 4) };
}

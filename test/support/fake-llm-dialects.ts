/**
 * Wire formats of the three upstream APIs, as far as the AI SDK's non-streaming `generateText`
 * needs them. Each dialect turns its request body into a common conversation view so tests can
 * assert prompts the same way whichever provider is under test.
 */

/** A turn of the conversation as the upstream received it; the system prompt comes first as role `system`. */
export interface FakeMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface Dialect {
  name: string;
  /** The path prefix to give the SDK as its base URL. */
  basePath: string;
  /** The model a POST to `path` asks for, or undefined when the path is not this API's. */
  route(path: string, body: Record<string, unknown>): { model: string } | undefined;
  conversation(body: Record<string, unknown>): FakeMessage[];
  answer(text: string, usage: { input: number; output: number }, model: string): unknown;
  /** The server-sent events of a streamed answer (`stream: true`), for dialects that stream. */
  stream?(text: string, model: string): unknown[];
  error(status: number, message: string): unknown;
}

export const openAIDialect: Dialect = {
  name: 'openai',
  basePath: '/v1',
  route: (path, body) => (path === '/v1/chat/completions' ? { model: String(body.model) } : undefined),
  conversation: (body) =>
    list(body.messages).map((message) => ({
      role: roleOf(field(message, 'role')),
      content: textOf(field(message, 'content')),
    })),
  answer: (text, usage, model) => ({
    id: 'chatcmpl-fake',
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
    usage: { prompt_tokens: usage.input, completion_tokens: usage.output, total_tokens: usage.input + usage.output },
  }),
  // One chunk per word, then one that says the answer is complete.
  stream: (text, model) => {
    const chunk = (delta: Record<string, string>, finish: string | null) => ({
      id: 'chatcmpl-fake',
      object: 'chat.completion.chunk',
      created: Math.floor(Date.now() / 1000),
      model,
      choices: [{ index: 0, delta, finish_reason: finish }],
    });
    const words = text.split(/(?<= )/);
    return [
      chunk({ role: 'assistant', content: '' }, null),
      ...words.map((word) => chunk({ content: word }, null)),
      chunk({}, 'stop'),
    ];
  },
  error: (status, message) => ({
    error: { message, type: status === 429 ? 'rate_limit_exceeded' : 'server_error', code: status },
  }),
};

export const anthropicDialect: Dialect = {
  name: 'anthropic',
  basePath: '/v1',
  route: (path, body) => (path === '/v1/messages' ? { model: String(body.model) } : undefined),
  conversation: (body) => [
    ...(body.system === undefined ? [] : [{ role: 'system' as const, content: textOf(body.system) }]),
    ...list(body.messages).map((message) => ({
      role: roleOf(field(message, 'role')),
      content: textOf(field(message, 'content')),
    })),
  ],
  answer: (text, usage, model) => ({
    id: 'msg_fake',
    type: 'message',
    role: 'assistant',
    model,
    content: [{ type: 'text', text }],
    stop_reason: 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: usage.input, output_tokens: usage.output },
  }),
  error: (status, message) => ({
    type: 'error',
    error: {
      type: status === 429 ? 'rate_limit_error' : status >= 500 ? 'api_error' : 'invalid_request_error',
      message,
    },
  }),
};

export const googleDialect: Dialect = {
  name: 'google',
  basePath: '/v1beta',
  route: (path) => {
    const model = /^\/v1beta\/models\/([^/:]+):generateContent$/.exec(path)?.[1];
    return model === undefined ? undefined : { model: decodeURIComponent(model) };
  },
  conversation: (body) => [
    ...(body.systemInstruction === undefined
      ? []
      : [{ role: 'system' as const, content: textOf(field(body.systemInstruction, 'parts')) }]),
    ...list(body.contents).map((content) => ({
      role: field(content, 'role') === 'model' ? ('assistant' as const) : roleOf(field(content, 'role')),
      content: textOf(field(content, 'parts')),
    })),
  ],
  answer: (text, usage) => ({
    candidates: [{ content: { role: 'model', parts: [{ text }] }, finishReason: 'STOP', index: 0 }],
    usageMetadata: {
      promptTokenCount: usage.input,
      candidatesTokenCount: usage.output,
      totalTokenCount: usage.input + usage.output,
    },
  }),
  error: (status, message) => ({
    error: { code: status, message, status: status === 429 ? 'RESOURCE_EXHAUSTED' : 'INTERNAL' },
  }),
};

function field(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
}

function list(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

function roleOf(value: unknown): FakeMessage['role'] {
  return value === 'system' || value === 'assistant' ? value : 'user';
}

/** A plain string, or the text parts of a content array (`{type:'text', text}` or Gemini's `{text}`), one per line. */
function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  return list(content)
    .map((part) => field(part, 'text'))
    .filter((text): text is string => typeof text === 'string')
    .join('\n');
}

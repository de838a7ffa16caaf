import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { QUERY_SYSTEM, RLM_CODE_SYSTEM } from '../../src/core/context/prompts.js';
import { REFLECT_SYSTEM } from '../../src/core/reflect/prompt.js';
import type { FakeReply, RecordedRequest } from '../support/fake-llm-server.js';

export const STDIO_MAIN = fileURLToPath(new URL('../../src/mcp/stdio-main.ts', import.meta.url));

/** What the fake language model answers each feature of the scenario; everything else gets an error, so rules apply. */
export const MODEL_ANSWERS = {
  query: 'The nightly ARM build failed.',
  reflection: 'Pinning the toolchain fixed the ARM build.',
  rlmCode: "_final_result = sorted(m['content'] for m in memories)[:1]\n_goal_achieved = True",
};

/** Whether a system prompt is the one given (its first line: a structured-output call may append instructions). */
const isPrompt = (system: string, prompt: string) => system.startsWith(prompt.split('\n')[0]!);

export function fakeModel(request: RecordedRequest): FakeReply {
  const system = request.messages[0]?.content ?? '';
  if (isPrompt(system, REFLECT_SYSTEM))
    return JSON.stringify({ reflection: MODEL_ANSWERS.reflection, sources: [1], confidence: 0.8 });
  if (isPrompt(system, QUERY_SYSTEM)) return MODEL_ANSWERS.query;
  if (isPrompt(system, RLM_CODE_SYSTEM)) return `\`\`\`python\n${MODEL_ANSWERS.rlmCode}\n\`\`\``;
  if (system.includes('contradict each other')) {
    const ports = request.messages.at(-1)?.content.includes('port 8080') ?? false;
    return JSON.stringify({
      contradicts: ports,
      type: ports ? 'number_change' : 'other',
      confidence: 0.9,
      explanation: ports ? 'The port changed.' : 'Compatible.',
    });
  }
  return { status: 500, message: 'not scripted: the rules apply' };
}

/** The language-model settings of a memd process that asks the fake (a spawned stdio server). */
export const fakeModelEnv = (baseUrl: string): Record<string, string> => ({
  MEMD_LLM_PROVIDER: 'openai',
  MEMD_LLM_BASE_URL: baseUrl,
  MEMD_LLM_MODEL: 'test-model',
  MEMD_LLM_MAX_RETRIES: '0',
});

/** A tool error as memd sends it (`{error: {code, message}}`), or the SDK's text for arguments its schema refused. */
export interface ToolFailure {
  code: string | undefined;
  message: string;
  details?: Array<{ path: string; message: string }>;
}

/** The SDK's own client, with the calls tests make: a tool's JSON result, or its failure. */
export interface McpTestClient {
  client: Client;
  /** Every tool called through `call` or `fail`. */
  called: Set<string>;
  call(name: string, args?: Record<string, unknown>): Promise<any>;
  fail(name: string, args?: Record<string, unknown>): Promise<ToolFailure>;
  close(): Promise<void>;
}

const textOf = (result: CallToolResult): string =>
  result.content.map((part) => (part.type === 'text' ? part.text : '')).join('');

function wrap(client: Client, onClose: () => Promise<void> = async () => {}): McpTestClient {
  const called = new Set<string>();
  const invoke = async (name: string, args: Record<string, unknown>) => {
    called.add(name);
    return (await client.callTool({ name, arguments: args })) as CallToolResult;
  };
  return {
    client,
    called,
    async call(name, args = {}) {
      const result = await invoke(name, args);
      const text = textOf(result);
      if (result.isError) throw new Error(`${name} failed: ${text}`);
      // JSON, or text as the tool sent it (an NDJSON export).
      try {
        return JSON.parse(text);
      } catch {
        return text;
      }
    },
    async fail(name, args = {}) {
      const result = await invoke(name, args);
      const text = textOf(result);
      if (!result.isError) throw new Error(`${name} was expected to fail, and answered: ${text.slice(0, 500)}`);
      if (!text.startsWith('{')) return { code: undefined, message: text };
      const { error } = JSON.parse(text) as { error: ToolFailure };
      return error;
    },
    async close() {
      await client.close();
      await onClose();
    },
  };
}

/** An MCP client over streamable HTTP to a memd server's /mcp. */
export async function connectHttp(baseUrl: string, headers: Record<string, string> = {}): Promise<McpTestClient> {
  const client = new Client({ name: 'memd-tests', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', baseUrl), { requestInit: { headers } }));
  return wrap(client);
}

export interface SpawnedStdio extends McpTestClient {
  /** What the process wrote to stderr (its logs). */
  stderr(): string;
}

/** An MCP client of a spawned `stdio-main.ts` process (run by tsx, as the sources are). */
export async function spawnStdio(args: string[], env: Record<string, string> = {}): Promise<SpawnedStdio> {
  let stderr = '';
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--import', 'tsx', STDIO_MAIN, ...args],
    env: { ...(process.env as Record<string, string>), MEMD_LOG_LEVEL: 'warn', ...env },
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const client = new Client({ name: 'memd-tests', version: '1' });
  try {
    await client.connect(transport);
  } catch (error) {
    throw new Error(`the stdio server did not start: ${(error as Error).message}\n${stderr}`);
  }
  return { ...wrap(client), stderr: () => stderr };
}

/** Polls `check` until it holds (background work in another process), up to `timeoutMs`. */
export async function eventually<T>(check: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('the condition did not come true in time');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

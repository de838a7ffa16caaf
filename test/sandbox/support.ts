import type { SandboxConfig } from '../../src/config.js';
import type { LlmProvider, LlmRequest, LlmResponse } from '../../src/providers/llm/types.js';
import {
  InMemoryCheckpointStore,
  SandboxManager,
  type SandboxHost,
  type SandboxManagerOptions,
} from '../../src/sandbox/index.js';

export const MiB = 1024 * 1024;

export const testConfig = (overrides: Partial<SandboxConfig> = {}): SandboxConfig => ({
  maxLive: 4,
  // Generous: first imports of big stdlib modules are slow when both cores are busy starting workers.
  executionTimeoutMs: 15_000,
  memoryLimitBytes: 256 * MiB,
  idleEvictMs: 600_000,
  maxOutputChars: 50_000,
  spare: 'start',
  // Off: tests that count checkpoints must not race a timer; the test of the delay sets it.
  checkpoint: 'delayed',
  checkpointDelayMs: 0,
  ...overrides,
});

/** A host that answers with the session id, so a test can see whose host a call reached. */
export const echoHost = (sessionId: string): SandboxHost => ({
  llmQuery: async (prompt) => `${sessionId} answers: ${prompt}`,
  recall: async (query, limit) => [{ session: sessionId, query, limit }],
});

export function createManager(
  options: Omit<Partial<SandboxManagerOptions>, 'config'> & { config?: Partial<SandboxConfig> } = {},
) {
  const store = (options.store as InMemoryCheckpointStore | undefined) ?? new InMemoryCheckpointStore();
  const manager = new SandboxManager({
    hostFor: echoHost,
    interruptGraceMs: 500,
    ...options,
    config: testConfig(options.config),
    store,
  });
  return { manager, store };
}

/** A scripted reply: a text, or `hang` for a model that answers only by being aborted. */
export type ScriptedReply = string | 'hang';

/** A language model that replies with scripted texts in order and records what it was asked. */
export class ScriptedLlm implements LlmProvider {
  readonly name = 'scripted';
  readonly model = 'scripted-1';
  readonly requests: LlmRequest[] = [];

  constructor(private readonly replies: ScriptedReply[]) {}

  async complete(request: LlmRequest): Promise<LlmResponse> {
    this.requests.push(request);
    const reply = this.replies.shift();
    if (reply === undefined) throw new Error('the scripted model has no reply left');
    if (reply === 'hang') {
      return new Promise((_resolve, reject) =>
        request.signal?.addEventListener('abort', () => reject(new Error('aborted'))),
      );
    }
    return { text: reply, inputTokens: undefined, outputTokens: undefined };
  }

  /** The user message of the n-th request. */
  prompt(index: number): string {
    return this.requests[index]?.messages.at(-1)?.content ?? '';
  }
}

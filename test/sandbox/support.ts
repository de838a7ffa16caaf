import type { SandboxConfig } from '../../src/config.js';
import type { LlmProvider, LlmRequest, LlmResponse } from '../../src/providers/llm/types.js';
import { InMemoryCheckpointStore, SandboxManager, type SandboxHost, type SandboxManagerOptions } from '../../src/sandbox/index.js';

export const MiB = 1024 * 1024;

export const testConfig = (overrides: Partial<SandboxConfig> = {}): SandboxConfig => ({
  maxLive: 4,
  executionTimeoutMs: 2_000,
  memoryLimitBytes: 256 * MiB,
  idleEvictMs: 600_000,
  maxOutputChars: 50_000,
  ...overrides,
});

/** A host that answers with the session id, so a test can see whose host a call reached. */
export const echoHost = (sessionId: string): SandboxHost => ({
  llmQuery: async (prompt) => `${sessionId} answers: ${prompt}`,
  recall: async (query, limit) => [{ session: sessionId, query, limit }],
});

export function createManager(options: Omit<Partial<SandboxManagerOptions>, 'config'> & { config?: Partial<SandboxConfig> } = {}) {
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

/** A language model that replies with scripted texts in order and records what it was asked. */
export class ScriptedLlm implements LlmProvider {
  readonly name = 'scripted';
  readonly model = 'scripted-1';
  readonly requests: LlmRequest[] = [];

  constructor(private readonly replies: string[]) {}

  async complete(request: LlmRequest): Promise<LlmResponse> {
    this.requests.push(request);
    const text = this.replies.shift();
    if (text === undefined) throw new Error('the scripted model has no reply left');
    return { text, inputTokens: undefined, outputTokens: undefined };
  }
}

import { ConfigError, type LlmConfig } from '../../config.js';
import { AppError } from '../../errors.js';
import type { RetryPolicy } from './retry.js';
import type { SdkProviderSpec } from './sdk-provider.js';
import type { LlmProvider } from './types.js';

export { completeJson, extractJson, type LlmJsonResponse } from './json.js';
export type { LlmMessage, LlmProvider, LlmRequest, LlmResponse } from './types.js';

export interface LlmProviderOptions {
  /** First retry backoff, doubled per retry (default 500 ms). Tests shrink it; production has no reason to. */
  retryDelayMs?: number;
}

const DEFAULT_RETRY_DELAY_MS = 500;
const MAX_RETRY_DELAY_MS = 10_000;

/**
 * The configured language model, or null for MEMD_LLM_PROVIDER=none. Misconfiguration throws
 * ConfigError, so it stops the boot rather than the first reflect.
 */
export function createLlmProvider(config: LlmConfig, options: LlmProviderOptions = {}): LlmProvider | null {
  if (config.provider === 'none') return null;
  const { provider, model, baseUrl, apiKey } = config;
  if (!model) throw new ConfigError(`MEMD_LLM_PROVIDER=${provider} needs MEMD_LLM_MODEL`);
  // The SDKs would fall back to ANTHROPIC_API_KEY / GOOGLE_GENERATIVE_AI_API_KEY; one documented variable is clearer.
  if (provider !== 'openai' && !apiKey) throw new ConfigError(`MEMD_LLM_PROVIDER=${provider} needs MEMD_LLM_API_KEY`);

  const policy: RetryPolicy = {
    timeoutMs: config.timeoutMs,
    maxRetries: config.maxRetries,
    baseDelayMs: options.retryDelayMs ?? DEFAULT_RETRY_DELAY_MS,
    maxDelayMs: MAX_RETRY_DELAY_MS,
  };
  const endpoint = { model, baseUrl, apiKey };
  switch (provider) {
    case 'openai': {
      if (!baseUrl)
        throw new ConfigError('MEMD_LLM_PROVIDER=openai needs MEMD_LLM_BASE_URL (e.g. https://api.openai.com/v1)');
      return loadedOnFirstUse(provider, model, policy, async () =>
        (await import('./openai.js')).openAISpec({ ...endpoint, baseUrl }),
      );
    }
    case 'anthropic':
      return loadedOnFirstUse(provider, model, policy, async () =>
        (await import('./anthropic.js')).anthropicSpec(endpoint),
      );
    case 'google':
      return loadedOnFirstUse(provider, model, policy, async () => (await import('./google.js')).googleSpec(endpoint));
  }
}

/**
 * The AI SDK and the providers' packages (with zod, 133 modules) load with the first completion, not at start:
 * a server that never asks its model, or not yet, needs none of them (NOTES.md, "Tests and CI"). The settings were
 * checked above, so a mistake in them still stops the boot. A load that fails is tried again by the next completion.
 */
function loadedOnFirstUse(
  name: SdkProviderSpec['name'],
  model: string,
  policy: RetryPolicy,
  specOf: () => Promise<SdkProviderSpec>,
): LlmProvider {
  let loaded: Promise<LlmProvider> | undefined;
  const load = async () => {
    const [{ createSdkProvider }, spec] = await Promise.all([import('./sdk-provider.js'), specOf()]);
    return createSdkProvider(spec, policy);
  };
  return {
    name,
    model,
    async complete(request) {
      loaded ??= load().catch((error: unknown) => {
        loaded = undefined;
        throw error;
      });
      return (await loaded).complete(request);
    },
  };
}

/** For features that cannot degrade without a model (reflect, sandbox `query`/`rlm`): a 503 that says what to set. */
export function requireLlm(llm: LlmProvider | null, feature: string): LlmProvider {
  if (llm) return llm;
  throw new AppError(
    'provider_unavailable',
    `${feature} needs a language model; set MEMD_LLM_PROVIDER (openai, anthropic or google) and MEMD_LLM_MODEL, ` +
      'plus MEMD_LLM_BASE_URL for OpenAI-compatible servers and MEMD_LLM_API_KEY for hosted APIs',
  );
}

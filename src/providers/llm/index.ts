import { ConfigError, type LlmConfig } from '../../config.js';
import { AppError } from '../../errors.js';
import { anthropicSpec } from './anthropic.js';
import { googleSpec } from './google.js';
import { openAISpec } from './openai.js';
import type { RetryPolicy } from './retry.js';
import { createSdkProvider } from './sdk-provider.js';
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
  switch (provider) {
    case 'openai':
      if (!baseUrl)
        throw new ConfigError('MEMD_LLM_PROVIDER=openai needs MEMD_LLM_BASE_URL (e.g. https://api.openai.com/v1)');
      return createSdkProvider(openAISpec({ model, baseUrl, apiKey }), policy);
    case 'anthropic':
      return createSdkProvider(anthropicSpec({ model, baseUrl, apiKey }), policy);
    case 'google':
      return createSdkProvider(googleSpec({ model, baseUrl, apiKey }), policy);
  }
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

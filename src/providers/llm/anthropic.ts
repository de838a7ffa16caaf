import { createAnthropic } from '@ai-sdk/anthropic';
import type { LlmEndpoint, SdkProviderSpec } from './sdk-provider.js';

/** The Anthropic Messages API. */
export function anthropicSpec(endpoint: LlmEndpoint): SdkProviderSpec {
  const provider = createAnthropic({ baseURL: endpoint.baseUrl, apiKey: endpoint.apiKey });
  return {
    name: 'anthropic',
    modelId: endpoint.model,
    model: provider.languageModel(endpoint.model),
    // The Messages API has no schema-free JSON mode (the SDK drops it with a warning): the prompt asks instead.
    nativeJson: false,
    apiKey: endpoint.apiKey,
  };
}

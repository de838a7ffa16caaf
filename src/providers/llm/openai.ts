import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { APICallError } from 'ai';
import type { LlmEndpoint, SdkProviderSpec } from './sdk-provider.js';

/** Any OpenAI-compatible chat endpoint: OpenAI, Ollama, vLLM, LM Studio, llama.cpp, OpenRouter… */
export function openAISpec(endpoint: LlmEndpoint & { baseUrl: string }): SdkProviderSpec {
  const provider = createOpenAICompatible({ name: 'openai', baseURL: endpoint.baseUrl, apiKey: endpoint.apiKey });
  return {
    name: 'openai',
    modelId: endpoint.model,
    model: provider.chatModel(endpoint.model),
    nativeJson: true, // response_format: {type: 'json_object'}
    rejectsNativeJson,
    apiKey: endpoint.apiKey,
  };
}

/** LM Studio answers 400 "'response_format.type' must be 'json_schema' or 'text'" to JSON mode. */
function rejectsNativeJson(error: unknown): boolean {
  return (
    APICallError.isInstance(error) &&
    error.statusCode === 400 &&
    /response_format/i.test(error.responseBody ?? error.message)
  );
}

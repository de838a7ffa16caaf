import { createGoogleGenerativeAI } from '@ai-sdk/google';
import type { LlmEndpoint, SdkProviderSpec } from './sdk-provider.js';

/** The Gemini API (Google Generative Language `generateContent`). */
export function googleSpec(endpoint: LlmEndpoint): SdkProviderSpec {
  const provider = createGoogleGenerativeAI({ baseURL: endpoint.baseUrl, apiKey: endpoint.apiKey });
  return {
    name: 'google',
    modelId: endpoint.model,
    model: provider.languageModel(endpoint.model),
    nativeJson: true, // generationConfig.responseMimeType: application/json
    apiKey: endpoint.apiKey,
  };
}

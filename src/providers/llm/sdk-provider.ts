import { generateText, wrapLanguageModel, type LanguageModelMiddleware } from 'ai';
import { AppError } from '../../errors.js';
import { GaveUp, runWithRetries, type RetryPolicy } from './retry.js';
import type { LlmProvider, LlmRequest, LlmResponse } from './types.js';
import { classifyUpstreamError, describeUpstreamError } from './upstream-error.js';

/** The resolved MEMD_LLM_* settings a provider module needs to build its model. */
export interface LlmEndpoint {
  model: string;
  /** Overrides the provider's default endpoint (also how tests reach local fakes). */
  baseUrl: string | undefined;
  apiKey: string | undefined;
}

/** A model built by one of the AI SDK provider packages. */
export type SdkModel = Parameters<typeof wrapLanguageModel>[0]['model'];

/** What a provider module contributes; everything else is shared. */
export interface SdkProviderSpec {
  name: 'openai' | 'anthropic' | 'google';
  modelId: string;
  model: SdkModel;
  /** The endpoint takes a native JSON response format (OpenAI `response_format`, Gemini `responseMimeType`). */
  nativeJson: boolean;
  /** Recognises an endpoint refusing the native JSON format, so this provider falls back to the prompt alone. */
  rejectsNativeJson?: (error: unknown) => boolean;
  /** Scrubbed from every error message, whatever the upstream echoes. */
  apiKey: string | undefined;
}

/** Said in every JSON request: it is the only enforcement some models get, and OpenAI's JSON mode demands the word. */
export const JSON_INSTRUCTION =
  'Answer with JSON only: one JSON value, no prose before or after it, no Markdown code fences.';

const jsonResponseFormat: LanguageModelMiddleware = {
  specificationVersion: 'v3',
  transformParams: async ({ params }) => ({ ...params, responseFormat: { type: 'json' } }),
};

class EmptyAnswer extends Error {
  constructor(finishReason: string) {
    super(`the model returned no text (finish reason: ${finishReason})`);
  }
}

/** One code path for every AI SDK provider: prompt shaping, JSON mode, retries, timeout, error mapping. */
export function createSdkProvider(spec: SdkProviderSpec, policy: RetryPolicy): LlmProvider {
  const jsonModel = spec.nativeJson
    ? wrapLanguageModel({ model: spec.model, middleware: jsonResponseFormat })
    : spec.model;
  let nativeJson = spec.nativeJson;

  const generate = async (request: LlmRequest, signal: AbortSignal, useNativeJson: boolean): Promise<LlmResponse> => {
    const result = await generateText({
      model: useNativeJson ? jsonModel : spec.model,
      system: request.json ? [request.system, JSON_INSTRUCTION].filter(Boolean).join('\n\n') : request.system,
      messages: request.messages,
      // Leading system turns are part of our interface (checked by assertPortable); without this the SDK warns per call.
      allowSystemInMessages: true,
      maxOutputTokens: request.maxOutputTokens,
      temperature: request.temperature,
      maxRetries: 0, // retries and the time budget are ours: see runWithRetries
      abortSignal: signal,
    });
    if (result.text.trim() === '') throw new EmptyAnswer(result.finishReason);
    return { text: result.text, inputTokens: result.usage.inputTokens, outputTokens: result.usage.outputTokens };
  };

  const attempt = async (request: LlmRequest, signal: AbortSignal): Promise<LlmResponse> => {
    if (!request.json || !nativeJson) return generate(request, signal, false);
    try {
      return await generate(request, signal, true);
    } catch (error) {
      if (!spec.rejectsNativeJson?.(error)) throw error;
      nativeJson = false; // remembered: the endpoint will not change its mind
      return generate(request, signal, false);
    }
  };

  return {
    name: spec.name,
    model: spec.modelId,
    async complete(request) {
      assertPortable(request);
      try {
        return await runWithRetries(
          (signal) => attempt(request, signal),
          policy,
          classifyUpstreamError,
          request.signal,
        );
      } catch (error) {
        throw error instanceof GaveUp ? providerError(spec, policy, error) : error;
      }
    },
  };
}

/**
 * Anthropic and Gemini refuse a system turn after the conversation has started; OpenAI-compatible
 * servers take it. Refusing it everywhere keeps a caller tested against one provider working on all.
 */
function assertPortable(request: LlmRequest): void {
  const firstTurn = request.messages.findIndex((message) => message.role !== 'system');
  if (firstTurn !== -1 && request.messages.slice(firstTurn).some((message) => message.role === 'system')) {
    throw new AppError(
      'internal_error',
      'LlmRequest: system messages must precede the user/assistant turns (use `system` for instructions)',
    );
  }
}

function providerError(spec: SdkProviderSpec, policy: RetryPolicy, failure: GaveUp): AppError {
  const who = `LLM provider ${spec.name} (model ${spec.modelId})`;
  const tries = `${failure.attempts} attempt${failure.attempts === 1 ? '' : 's'}`;
  let message: string;
  if (failure.reason === 'timeout') {
    const before =
      failure.lastError === undefined
        ? ''
        : `; the attempt before failed with ${describeUpstreamError(failure.lastError)}`;
    message = `${who} timed out after ${policy.timeoutMs} ms (${tries}${before}); raise MEMD_LLM_TIMEOUT_MS or check the endpoint`;
  } else {
    const why = failure.reason === 'no_time_left' ? `, no time left for a retry within ${policy.timeoutMs} ms` : '';
    message = `${who} failed after ${tries}${why}: ${describeUpstreamError(failure.lastError)}`;
  }
  // A placeholder key such as "ollama" is no secret, and redacting it would garble the message.
  if (spec.apiKey && spec.apiKey.length >= 12) message = message.replaceAll(spec.apiKey, '[redacted]');
  return new AppError('provider_error', message, { cause: failure.lastError });
}

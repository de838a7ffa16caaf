import { expect } from 'vitest';
import type { LlmConfig } from '../../../src/config.js';
import { AppError } from '../../../src/errors.js';
import { createLlmProvider } from '../../../src/providers/llm/index.js';
import type { LlmProvider } from '../../../src/providers/llm/types.js';

export const TEST_API_KEY = 'sk-test-0123456789';

/** A provider against a fake, with millisecond backoffs so retry tests stay fast. */
export function providerFor(overrides: Partial<LlmConfig>): LlmProvider {
  const llm = createLlmProvider(
    {
      provider: 'openai',
      model: 'test-model',
      baseUrl: undefined,
      apiKey: TEST_API_KEY,
      timeoutMs: 5_000,
      maxRetries: 2,
      ...overrides,
    },
    { retryDelayMs: 1 },
  );
  if (!llm) throw new Error('expected a provider');
  return llm;
}

/** Awaits a rejection that must be an AppError with the given code, and returns it for message assertions. */
export async function appErrorFrom(promise: Promise<unknown>, code: AppError['code']): Promise<AppError> {
  const error: unknown = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(AppError);
  expect((error as AppError).code).toBe(code);
  return error as AppError;
}

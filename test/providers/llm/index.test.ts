import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../src/config.js';
import { AppError } from '../../../src/errors.js';
import { createLlmProvider, requireLlm } from '../../../src/providers/llm/index.js';

describe('createLlmProvider', () => {
  it('returns null when no model is configured', () => {
    expect(createLlmProvider(loadConfig({}).llm)).toBeNull();
  });

  it('builds each provider from MEMD_LLM_* variables', () => {
    const openai = createLlmProvider(
      loadConfig({
        MEMD_LLM_PROVIDER: 'openai',
        MEMD_LLM_MODEL: 'qwen2.5',
        MEMD_LLM_BASE_URL: 'http://127.0.0.1:11434/v1',
      }).llm,
    );
    expect(openai).toMatchObject({ name: 'openai', model: 'qwen2.5' });
    const google = createLlmProvider(
      loadConfig({ MEMD_LLM_PROVIDER: 'google', MEMD_LLM_MODEL: 'gemini-2.5-flash', MEMD_LLM_API_KEY: 'k' }).llm,
    );
    expect(google).toMatchObject({ name: 'google', model: 'gemini-2.5-flash' });
  });

  it('refuses a hosted provider without MEMD_LLM_API_KEY at startup', () => {
    const config = loadConfig({ MEMD_LLM_PROVIDER: 'anthropic', MEMD_LLM_MODEL: 'claude-sonnet-4-5' }).llm;
    expect(() => createLlmProvider(config)).toThrow(ConfigError);
    expect(() => createLlmProvider(config)).toThrow('MEMD_LLM_PROVIDER=anthropic needs MEMD_LLM_API_KEY');
  });
});

describe('requireLlm', () => {
  it('passes a configured provider through', () => {
    const llm = createLlmProvider(
      loadConfig({ MEMD_LLM_PROVIDER: 'google', MEMD_LLM_MODEL: 'g', MEMD_LLM_API_KEY: 'k' }).llm,
    );
    expect(requireLlm(llm, 'reflect')).toBe(llm);
  });

  it('throws provider_unavailable naming the feature and the variable to set', () => {
    const error: unknown = (() => {
      try {
        requireLlm(null, 'reflect');
      } catch (thrown) {
        return thrown;
      }
    })();
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ code: 'provider_unavailable', statusCode: 503 });
    expect((error as AppError).message).toMatch(/^reflect needs a language model; set MEMD_LLM_PROVIDER/);
  });
});

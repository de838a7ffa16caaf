import { availableParallelism } from 'node:os';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config.js';
import { loadPeerConfig } from '../../src/peer/config.js';

type Env = Record<string, string | undefined>;

function refusal(env: Env): string {
  try {
    loadPeerConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).message;
  }
  throw new Error(`loadPeerConfig(${JSON.stringify(env)}) was accepted`);
}

describe('loadPeerConfig', () => {
  it('gives every default when no variable is set', () => {
    expect(loadPeerConfig({})).toEqual({
      host: '127.0.0.1',
      port: 61051,
      logLevel: 'info',
      bodyLimitBytes: 32 * 1024 * 1024,
      apiKey: undefined,
      concurrency: 4,
      embedding: [
        {
          provider: 'local',
          model: undefined,
          baseUrl: undefined,
          apiKey: undefined,
          dimensions: undefined,
          workers: Math.max(1, Math.min(2, availableParallelism())),
          workerIdleMs: 30_000,
          timeoutMs: 30_000,
        },
      ],
      ocr: {
        provider: 'local',
        baseUrl: undefined,
        apiKey: undefined,
        timeoutMs: 120_000,
        maxPixels: 25_000_000,
        workers: 1,
      },
      llm: { enabled: false, profiles: [], defaultProfile: undefined, timeoutMs: 120_000 },
    });
  });

  it('reads its own variables and the shared MEMD_LOG_LEVEL, MEMD_EMBEDDING_* and MEMD_OCR_*', () => {
    const config = loadPeerConfig({
      MEMD_PEER_HOST: '0.0.0.0',
      MEMD_PEER_PORT: '0',
      MEMD_PEER_BODY_LIMIT_BYTES: '1024',
      MEMD_PEER_API_KEY: 'secret',
      MEMD_PEER_CONCURRENCY: '1024',
      MEMD_PEER_OCR: 'OFF',
      MEMD_PEER_LLM_TIMEOUT_MS: '100',
      MEMD_LOG_LEVEL: 'warn',
      MEMD_EMBEDDING_TIMEOUT_MS: '5000',
      MEMD_EMBEDDING_MODEL: 'fallback-model',
      MEMD_OCR_WORKERS: '3',
      MEMD_PEER_EMBEDDING_PROVIDERS: 'local,openai:text-embedding-3-small,transformers,hash:ignored:part',
      MEMD_EMBEDDING_BASE_URL: 'http://upstream/v1',
    });
    expect(config).toMatchObject({
      host: '0.0.0.0',
      port: 0,
      bodyLimitBytes: 1024,
      apiKey: 'secret',
      concurrency: 1024,
      logLevel: 'warn',
      ocr: { provider: 'off', workers: 3 },
      llm: { timeoutMs: 100 },
    });
    // A provider that takes a model and names none gets MEMD_EMBEDDING_MODEL; one that takes none keeps what it names.
    expect(config.embedding.map(({ provider, model, timeoutMs }) => ({ provider, model, timeoutMs }))).toEqual([
      { provider: 'local', model: undefined, timeoutMs: 5000 },
      { provider: 'openai', model: 'text-embedding-3-small', timeoutMs: 5000 },
      { provider: 'transformers', model: 'fallback-model', timeoutMs: 5000 },
      { provider: 'hash', model: 'ignored:part', timeoutMs: 5000 },
    ]);
  });

  it('refuses wrong values with a message that names the variable', () => {
    expect(refusal({ MEMD_PEER_PORT: '65536' })).toBe(
      "MEMD_PEER_PORT must be an integer between 0 and 65535, got '65536'",
    );
    expect(refusal({ MEMD_PEER_BODY_LIMIT_BYTES: '1023' })).toBe(
      `MEMD_PEER_BODY_LIMIT_BYTES must be an integer between 1024 and ${1024 ** 3}, got '1023'`,
    );
    expect(refusal({ MEMD_PEER_CONCURRENCY: '0' })).toBe(
      "MEMD_PEER_CONCURRENCY must be an integer between 1 and 1024, got '0'",
    );
    expect(refusal({ MEMD_PEER_LLM_TIMEOUT_MS: '3600001' })).toBe(
      "MEMD_PEER_LLM_TIMEOUT_MS must be an integer between 100 and 3600000, got '3600001'",
    );
    expect(refusal({ MEMD_PEER_OCR: 'peer' })).toBe("MEMD_PEER_OCR must be one of local, off, got 'peer'");
    expect(refusal({ MEMD_PEER_LLM_ENABLED: 'sometimes' })).toBe(
      "MEMD_PEER_LLM_ENABLED must be true or false, got 'sometimes'",
    );
    expect(refusal({ MEMD_PEER_EMBEDDING_PROVIDERS: ' , ' })).toBe('MEMD_PEER_EMBEDDING_PROVIDERS names no provider');
    expect(refusal({ MEMD_PEER_EMBEDDING_PROVIDERS: 'local,Magic:x' })).toBe(
      "MEMD_PEER_EMBEDDING_PROVIDERS: 'Magic' is not one of local, openai, transformers, hash",
    );
    expect(refusal({ MEMD_PEER_EMBEDDING_PROVIDERS: 'openai:m' })).toBe(
      'MEMD_EMBEDDING_PROVIDER=openai needs MEMD_EMBEDDING_BASE_URL',
    );
    expect(refusal({ MEMD_PEER_EMBEDDING_PROVIDERS: 'transformers' })).toBe(
      'MEMD_EMBEDDING_PROVIDER=transformers needs MEMD_EMBEDDING_MODEL (a Hugging Face id or a local path)',
    );
    expect(refusal({ MEMD_OCR_TIMEOUT_MS: '999' })).toBe(
      "MEMD_OCR_TIMEOUT_MS must be an integer between 1000 and 3600000, got '999'",
    );
  });

  it('reads language-model profiles only when hosting is on', () => {
    expect(loadPeerConfig({ MEMD_PEER_LLM_PROFILES: 'fast', MEMD_PEER_LLM_DEFAULT_PROFILE: 'nowhere' }).llm).toEqual({
      enabled: false,
      profiles: [],
      defaultProfile: undefined,
      timeoutMs: 120_000,
    });
    const on = {
      MEMD_PEER_LLM_ENABLED: 'yes',
      MEMD_PEER_LLM_PROFILES: 'fast, smart-one',
      MEMD_PEER_LLM_FAST_BASE_URL: 'http://127.0.0.1:8000/v1/',
      MEMD_PEER_LLM_FAST_MODEL: 'qwen',
      MEMD_PEER_LLM_FAST_ALIASES: 'quick, cheap',
      MEMD_PEER_LLM_SMART_ONE_BASE_URL: 'http://127.0.0.1:8001/v1',
      MEMD_PEER_LLM_SMART_ONE_MODEL: 'llama',
      MEMD_PEER_LLM_SMART_ONE_API_KEY: 'k',
    };
    expect(loadPeerConfig(on).llm).toEqual({
      enabled: true,
      profiles: [
        {
          name: 'fast',
          baseUrl: 'http://127.0.0.1:8000/v1',
          model: 'qwen',
          apiKey: undefined,
          aliases: ['quick', 'cheap'],
        },
        { name: 'smart-one', baseUrl: 'http://127.0.0.1:8001/v1', model: 'llama', apiKey: 'k', aliases: [] },
      ],
      defaultProfile: 'fast',
      timeoutMs: 120_000,
    });
    expect(loadPeerConfig({ ...on, MEMD_PEER_LLM_DEFAULT_PROFILE: 'smart-one' }).llm.defaultProfile).toBe('smart-one');
    expect(refusal({ ...on, MEMD_PEER_LLM_DEFAULT_PROFILE: 'huge' })).toBe(
      "MEMD_PEER_LLM_DEFAULT_PROFILE 'huge' is not in MEMD_PEER_LLM_PROFILES",
    );
    expect(refusal({ MEMD_PEER_LLM_ENABLED: 'true' })).toBe(
      'MEMD_PEER_LLM_ENABLED=true needs MEMD_PEER_LLM_PROFILES (comma-separated profile names)',
    );
    expect(refusal({ ...on, MEMD_PEER_LLM_SMART_ONE_MODEL: '' })).toBe(
      "language-model profile 'smart-one' needs MEMD_PEER_LLM_SMART_ONE_BASE_URL and MEMD_PEER_LLM_SMART_ONE_MODEL",
    );
  });
});

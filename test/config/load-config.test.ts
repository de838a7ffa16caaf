import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, type Config } from '../../src/config.js';

type Env = Record<string, string | undefined>;

/** The message of the ConfigError that loading `env` throws (and fails the test when it loads). */
function refusal(env: Env): string {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).message;
  }
  throw new Error(`loadConfig(${JSON.stringify(env)}) was accepted`);
}

/** Reads a field of the config by its dotted path (`tasks.leaseMs`). */
const at = (config: Config, path: string): unknown =>
  path.split('.').reduce<unknown>((value, key) => (value as Record<string, unknown>)[key], config);

describe('loadConfig', () => {
  it('gives every default when no variable is set', () => {
    expect(loadConfig({})).toEqual({
      host: '127.0.0.1',
      port: 61001,
      dataDir: resolve('./data'),
      logLevel: 'info',
      bodyLimitBytes: 10 * 1024 * 1024,
      importBodyLimitBytes: 512 * 1024 * 1024,
      jsonMaxDepth: 64,
      requestTimeoutSeconds: 600,
      shutdownTimeoutMs: 10_000,
      storage: { kind: 'sqlite', path: resolve('./data/memd.sqlite'), insertBeam: 128 },
      auth: { adminKey: undefined },
      workspaces: { autoCreate: true },
      embedding: {
        provider: 'local',
        model: undefined,
        baseUrl: undefined,
        apiKey: undefined,
        dimensions: undefined,
        workers: Math.max(1, Math.min(2, availableParallelism())),
        workerIdleMs: 30_000,
        timeoutMs: 30_000,
      },
      llm: {
        provider: 'none',
        model: undefined,
        baseUrl: undefined,
        apiKey: undefined,
        timeoutMs: 60_000,
        maxRetries: 2,
      },
      tasks: {
        concurrency: 2,
        batchSize: 32,
        foregroundWaitMs: 1_000,
        pollIntervalMs: 500,
        leaseMs: 60_000,
        maxAttempts: 5,
      },
      recall: { cacheEntries: 4096, cacheTtlMs: 300_000, reranker: 'none' },
      sandbox: {
        maxLive: 8,
        executionTimeoutMs: 30_000,
        memoryLimitBytes: 268_435_456,
        idleEvictMs: 600_000,
        maxOutputChars: 50_000,
        spare: 'first-use',
        checkpoint: 'delayed',
        checkpointDelayMs: 5_000,
      },
      graph: { maxNodes: 20_000, maxEdges: 200_000, workerMinSize: 5_000 },
      documents: {
        maxBytes: 50 * 1024 * 1024,
        extractTimeoutMs: 300_000,
        extractMemoryMb: 1024,
        maxExpandedBytes: 256 * 1024 * 1024,
        renderMemoryMb: 512,
      },
      ocr: {
        provider: 'local',
        baseUrl: undefined,
        apiKey: undefined,
        timeoutMs: 120_000,
        maxPixels: 25_000_000,
        workers: 1,
      },
      transcription: { baseUrl: undefined, model: 'whisper-1', apiKey: undefined, timeoutMs: 600_000 },
      rateLimit: { perMinute: 0 },
      secrets: { key: undefined, keyFile: resolve('./data/secret.key') },
      mcp: { enabled: true },
      metrics: { enabled: true, key: undefined },
      tracing: null,
    });
  });

  it('takes each text setting as given, trimmed, and an empty or blank one as unset', () => {
    const config = loadConfig({
      MEMD_HOST: ' 0.0.0.0 ',
      MEMD_DATA_DIR: '/tmp/memd-config-test',
      MEMD_SQLITE_FILE: 'other.db',
      MEMD_LOG_LEVEL: 'debug',
      MEMD_ADMIN_KEY: 'admin',
      MEMD_EMBEDDING_MODEL: 'use-lite',
      MEMD_EMBEDDING_API_KEY: 'ek',
      MEMD_LLM_API_KEY: '   ',
      MEMD_OCR_API_KEY: 'ok',
      MEMD_TRANSCRIPTION_BASE_URL: 'http://127.0.0.1:9000/v1//',
      MEMD_TRANSCRIPTION_MODEL: 'whisper-large',
      MEMD_TRANSCRIPTION_API_KEY: 'tk',
      MEMD_METRICS_KEY: 'scrape',
    });
    expect(config).toMatchObject({
      host: '0.0.0.0',
      dataDir: '/tmp/memd-config-test',
      storage: { kind: 'sqlite', path: '/tmp/memd-config-test/other.db' },
      logLevel: 'debug',
      auth: { adminKey: 'admin' },
      embedding: { model: 'use-lite', apiKey: 'ek' },
      llm: { apiKey: undefined },
      ocr: { apiKey: 'ok' },
      transcription: { baseUrl: 'http://127.0.0.1:9000/v1', model: 'whisper-large', apiKey: 'tk' },
      metrics: { key: 'scrape' },
      secrets: { keyFile: '/tmp/memd-config-test/secret.key' },
    });
    expect(loadConfig({ MEMD_PORT: '', MEMD_STORAGE: '  ' })).toMatchObject({
      port: 61001,
      storage: { kind: 'sqlite' },
    });
  });

  // [variable, field, least, most]
  const integers: Array<[string, string, number, number]> = [
    ['MEMD_PORT', 'port', 0, 65535],
    ['MEMD_BODY_LIMIT_BYTES', 'bodyLimitBytes', 1024, 1024 ** 3],
    ['MEMD_IMPORT_BODY_LIMIT_BYTES', 'importBodyLimitBytes', 1024, 16 * 1024 ** 3],
    ['MEMD_JSON_MAX_DEPTH', 'jsonMaxDepth', 2, 1000],
    ['MEMD_SHUTDOWN_TIMEOUT_MS', 'shutdownTimeoutMs', 0, 600_000],
    ['MEMD_REQUEST_TIMEOUT_SECONDS', 'requestTimeoutSeconds', 0, 86_400],
    ['MEMD_EMBEDDING_DIMENSIONS', 'embedding.dimensions', 8, 8192],
    ['MEMD_EMBEDDING_WORKERS', 'embedding.workers', 1, 64],
    ['MEMD_EMBEDDING_WORKER_IDLE_MS', 'embedding.workerIdleMs', 0, 3_600_000],
    ['MEMD_EMBEDDING_TIMEOUT_MS', 'embedding.timeoutMs', 100, 600_000],
    ['MEMD_LLM_TIMEOUT_MS', 'llm.timeoutMs', 100, 600_000],
    ['MEMD_LLM_MAX_RETRIES', 'llm.maxRetries', 0, 10],
    ['MEMD_TASK_CONCURRENCY', 'tasks.concurrency', 0, 64],
    ['MEMD_TASK_POLL_MS', 'tasks.pollIntervalMs', 10, 60_000],
    ['MEMD_TASK_LEASE_MS', 'tasks.leaseMs', 1_000, 3_600_000],
    ['MEMD_TASK_MAX_ATTEMPTS', 'tasks.maxAttempts', 1, 100],
    ['MEMD_RECALL_CACHE_ENTRIES', 'recall.cacheEntries', 0, 1_000_000],
    ['MEMD_RECALL_CACHE_TTL_MS', 'recall.cacheTtlMs', 0, 86_400_000],
    ['MEMD_SANDBOX_MAX_LIVE', 'sandbox.maxLive', 1, 1024],
    ['MEMD_SANDBOX_TIMEOUT_MS', 'sandbox.executionTimeoutMs', 100, 3_600_000],
    ['MEMD_SANDBOX_MEMORY_BYTES', 'sandbox.memoryLimitBytes', 16 * 1024 * 1024, 16 * 1024 ** 3],
    ['MEMD_SANDBOX_IDLE_MS', 'sandbox.idleEvictMs', 1_000, 86_400_000],
    ['MEMD_SANDBOX_MAX_OUTPUT_CHARS', 'sandbox.maxOutputChars', 100, 10_000_000],
    ['MEMD_SANDBOX_CHECKPOINT_DELAY_MS', 'sandbox.checkpointDelayMs', 0, 3_600_000],
    ['MEMD_GRAPH_MAX_NODES', 'graph.maxNodes', 10, 1_000_000],
    ['MEMD_GRAPH_MAX_EDGES', 'graph.maxEdges', 10, 10_000_000],
    ['MEMD_GRAPH_WORKER_MIN_SIZE', 'graph.workerMinSize', 0, 100_000_000],
    ['MEMD_DOCUMENT_MAX_BYTES', 'documents.maxBytes', 1, 1024 ** 3],
    ['MEMD_DOCUMENT_EXTRACT_TIMEOUT_MS', 'documents.extractTimeoutMs', 100, 3_600_000],
    ['MEMD_DOCUMENT_EXTRACT_MEMORY_MB', 'documents.extractMemoryMb', 32, 16_384],
    ['MEMD_DOCUMENT_MAX_EXPANDED_BYTES', 'documents.maxExpandedBytes', 1024, 16 * 1024 ** 3],
    ['MEMD_DOCUMENT_RENDER_MEMORY_MB', 'documents.renderMemoryMb', 64, 16_384],
    ['MEMD_OCR_TIMEOUT_MS', 'ocr.timeoutMs', 1_000, 3_600_000],
    ['MEMD_OCR_MAX_PIXELS', 'ocr.maxPixels', 10_000, 400_000_000],
    ['MEMD_OCR_WORKERS', 'ocr.workers', 1, 16],
    ['MEMD_TRANSCRIPTION_TIMEOUT_MS', 'transcription.timeoutMs', 1_000, 3_600_000],
    ['MEMD_RATE_LIMIT_PER_MINUTE', 'rateLimit.perMinute', 0, 10_000_000],
  ];

  it.each(integers)(
    '%s takes an integer from its least to its most value into %s, and refuses others',
    (name, path, least, most) => {
      expect(at(loadConfig({ [name]: String(least) }), path)).toBe(least);
      expect(at(loadConfig({ [name]: ` ${most} ` }), path)).toBe(most);
      for (const raw of [String(least - 1), String(most + 1), '1.5', 'ten']) {
        expect(refusal({ [name]: raw })).toBe(`${name} must be an integer between ${least} and ${most}, got '${raw}'`);
      }
    },
  );

  it('reads an integer as Number() does (exponent and hex forms included)', () => {
    expect(loadConfig({ MEMD_TASK_CONCURRENCY: '1e1', MEMD_OCR_WORKERS: '0x4', MEMD_PORT: '8080.0' })).toMatchObject({
      tasks: { concurrency: 10 },
      ocr: { workers: 4 },
      port: 8080,
    });
  });

  // [variable, field, accepted values, the value a test refuses]
  const choices: Array<[string, string, string[]]> = [
    ['MEMD_STORAGE', 'storage.kind', ['sqlite', 'postgres']],
    ['MEMD_LLM_PROVIDER', 'llm.provider', ['none', 'openai', 'anthropic', 'google']],
    ['MEMD_RECALL_RERANKER', 'recall.reranker', ['none', 'llm']],
    ['MEMD_EMBEDDING_PROVIDER', 'embedding.provider', ['local', 'openai', 'transformers', 'hash']],
    ['MEMD_SANDBOX_SPARE', 'sandbox.spare', ['start', 'first-use', 'off']],
    ['MEMD_SANDBOX_CHECKPOINT', 'sandbox.checkpoint', ['sync', 'delayed']],
    ['MEMD_OCR_PROVIDER', 'ocr.provider', ['local', 'peer', 'off']],
  ];

  it.each(choices)(
    '%s takes one of its values, in any case, and names them when it refuses another',
    (name, path, values) => {
      // What some choices need besides, so that each value loads.
      const needs: Env = {
        MEMD_DATABASE_URL: 'postgres://x',
        MEMD_LLM_PROVIDER: 'openai',
        MEMD_LLM_MODEL: 'm',
        MEMD_LLM_BASE_URL: 'http://llm',
        MEMD_EMBEDDING_BASE_URL: 'http://e',
        MEMD_EMBEDDING_MODEL: 'e',
        MEMD_OCR_BASE_URL: 'http://ocr',
      };
      for (const value of values) expect(at(loadConfig({ ...needs, [name]: value.toUpperCase() }), path)).toBe(value);
      expect(refusal({ [name]: 'Nothing' })).toBe(`${name} must be one of ${values.join(', ')}, got 'nothing'`);
    },
  );

  const flags: Array<[string, string, boolean]> = [
    ['MEMD_WORKSPACE_AUTO_CREATE', 'workspaces.autoCreate', true],
    ['MEMD_MCP_ENABLED', 'mcp.enabled', true],
    ['MEMD_METRICS_ENABLED', 'metrics.enabled', true],
  ];

  it.each(flags)('%s reads true/1/yes/on and false/0/no/off, and refuses anything else', (name, path) => {
    for (const raw of ['true', '1', 'YES', 'On']) expect(at(loadConfig({ [name]: raw }), path)).toBe(true);
    for (const raw of ['false', '0', 'No', 'OFF']) expect(at(loadConfig({ [name]: raw }), path)).toBe(false);
    expect(refusal({ [name]: 'Maybe' })).toBe(`${name} must be true or false, got 'maybe'`);
  });

  it('needs a database URL for Postgres, and reads the pool size and schema only there', () => {
    expect(refusal({ MEMD_STORAGE: 'postgres' })).toBe(
      'MEMD_STORAGE=postgres needs MEMD_DATABASE_URL (postgres://user:pass@host:5432/db)',
    );
    expect(loadConfig({ MEMD_STORAGE: 'postgres', MEMD_DATABASE_URL: 'postgres://u@h/db' }).storage).toEqual({
      kind: 'postgres',
      url: 'postgres://u@h/db',
      poolSize: 10,
      schema: undefined,
      efSearch: 100,
      vectorIndex: 'hnsw',
      ivfflatProbes: 40,
    });
    expect(
      loadConfig({
        MEMD_STORAGE: 'postgres',
        MEMD_DATABASE_URL: 'postgres://u@h/db',
        MEMD_DATABASE_POOL_SIZE: '200',
        MEMD_DATABASE_SCHEMA: 'tenant',
        MEMD_DATABASE_EF_SEARCH: '400',
        MEMD_DATABASE_VECTOR_INDEX: 'IVFFlat',
        MEMD_DATABASE_IVFFLAT_PROBES: '80',
      }).storage,
    ).toEqual({
      kind: 'postgres',
      url: 'postgres://u@h/db',
      poolSize: 200,
      schema: 'tenant',
      efSearch: 400,
      vectorIndex: 'ivfflat',
      ivfflatProbes: 80,
    });
    expect(
      refusal({ MEMD_STORAGE: 'postgres', MEMD_DATABASE_URL: 'postgres://u@h/db', MEMD_DATABASE_VECTOR_INDEX: 'ivf' }),
    ).toBe("MEMD_DATABASE_VECTOR_INDEX must be one of hnsw, ivfflat, got 'ivf'");
    expect(
      refusal({ MEMD_STORAGE: 'postgres', MEMD_DATABASE_URL: 'postgres://u@h/db', MEMD_DATABASE_POOL_SIZE: '0' }),
    ).toBe("MEMD_DATABASE_POOL_SIZE must be an integer between 1 and 200, got '0'");
    expect(
      refusal({ MEMD_STORAGE: 'postgres', MEMD_DATABASE_URL: 'postgres://u@h/db', MEMD_DATABASE_EF_SEARCH: '5' }),
    ).toBe("MEMD_DATABASE_EF_SEARCH must be an integer between 10 and 1000, got '5'");
    // On SQLite the pool size is never read, so a wrong one does no harm.
    expect(loadConfig({ MEMD_DATABASE_POOL_SIZE: 'lots' }).storage.kind).toBe('sqlite');
    expect(loadConfig({ MEMD_SQLITE_INSERT_BEAM: '64' }).storage).toMatchObject({ kind: 'sqlite', insertBeam: 64 });
    expect(refusal({ MEMD_SQLITE_INSERT_BEAM: '8' })).toBe(
      "MEMD_SQLITE_INSERT_BEAM must be an integer between 16 and 1000, got '8'",
    );
  });

  it('checkpoints sandboxes in sync on Postgres and delayed on SQLite unless told', () => {
    const postgres = { MEMD_STORAGE: 'postgres', MEMD_DATABASE_URL: 'postgres://u@h/db' };
    expect(loadConfig(postgres).sandbox.checkpoint).toBe('sync');
    expect(loadConfig({ ...postgres, MEMD_SANDBOX_CHECKPOINT: 'delayed' }).sandbox.checkpoint).toBe('delayed');
    expect(loadConfig({ MEMD_SANDBOX_CHECKPOINT: 'sync' }).sandbox.checkpoint).toBe('sync');
  });

  it('needs what each provider needs', () => {
    expect(refusal({ MEMD_LLM_PROVIDER: 'anthropic' })).toBe('MEMD_LLM_PROVIDER=anthropic needs MEMD_LLM_MODEL');
    expect(refusal({ MEMD_LLM_PROVIDER: 'openai', MEMD_LLM_MODEL: 'm' })).toBe(
      'MEMD_LLM_PROVIDER=openai needs MEMD_LLM_BASE_URL (e.g. https://api.openai.com/v1)',
    );
    expect(refusal({ MEMD_RECALL_RERANKER: 'llm' })).toBe(
      'MEMD_RECALL_RERANKER=llm needs a language model (MEMD_LLM_PROVIDER)',
    );
    expect(refusal({ MEMD_EMBEDDING_PROVIDER: 'openai' })).toBe(
      'MEMD_EMBEDDING_PROVIDER=openai needs MEMD_EMBEDDING_BASE_URL',
    );
    expect(refusal({ MEMD_EMBEDDING_PROVIDER: 'transformers' })).toBe(
      'MEMD_EMBEDDING_PROVIDER=transformers needs MEMD_EMBEDDING_MODEL (a Hugging Face id or a local path)',
    );
    expect(refusal({ MEMD_OCR_PROVIDER: 'peer' })).toBe(
      'MEMD_OCR_PROVIDER=peer needs MEMD_OCR_BASE_URL (the peer, e.g. http://127.0.0.1:61051/v1)',
    );
    const chosen = loadConfig({
      MEMD_LLM_PROVIDER: 'google',
      MEMD_LLM_MODEL: 'gemini',
      MEMD_RECALL_RERANKER: 'llm',
      MEMD_EMBEDDING_PROVIDER: 'openai',
      MEMD_EMBEDDING_BASE_URL: 'http://127.0.0.1:61051/v1/',
      MEMD_OCR_PROVIDER: 'peer',
      MEMD_OCR_BASE_URL: 'http://127.0.0.1:61051/v1/',
    });
    expect(chosen).toMatchObject({
      llm: { provider: 'google', model: 'gemini' },
      recall: { reranker: 'llm' },
      // The embedding base URL is kept as given; OCR's loses its trailing slashes.
      embedding: { provider: 'openai', baseUrl: 'http://127.0.0.1:61051/v1/' },
      ocr: { provider: 'peer', baseUrl: 'http://127.0.0.1:61051/v1' },
    });
  });

  it('takes a 32-byte secret key as hex or base64, and refuses any other', () => {
    const key = Buffer.alloc(32, 7);
    expect(loadConfig({ MEMD_SECRET_KEY: key.toString('hex') }).secrets.key).toEqual(key);
    expect(loadConfig({ MEMD_SECRET_KEY: key.toString('base64') }).secrets.key).toEqual(key);
    expect(loadConfig({ MEMD_SECRET_KEY: key.toString('base64url') }).secrets.key).toEqual(key);
    for (const raw of ['too-short', Buffer.alloc(16).toString('hex'), 'not base64 at all!']) {
      expect(refusal({ MEMD_SECRET_KEY: raw })).toBe(
        'MEMD_SECRET_KEY must be 32 bytes written as 64 hex digits or base64 (e.g. `openssl rand -base64 32`)',
      );
    }
  });
});

describe('loadConfig: tracing from the OTEL_* variables', () => {
  it('is off unless an exporter or an endpoint asks for it', () => {
    expect(loadConfig({}).tracing).toBeNull();
    expect(
      loadConfig({ OTEL_TRACES_EXPORTER: 'none', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' }).tracing,
    ).toBeNull();
    expect(loadConfig({ OTEL_SDK_DISABLED: 'true', OTEL_TRACES_EXPORTER: 'otlp' }).tracing).toBeNull();
    // Disabled, nothing else is read.
    expect(loadConfig({ OTEL_SDK_DISABLED: 'true', OTEL_TRACES_EXPORTER: 'zipkin' }).tracing).toBeNull();
  });

  it('defaults to protobuf to localhost:4318, all traces sampled, with service.name memd', () => {
    expect(loadConfig({ OTEL_TRACES_EXPORTER: 'OTLP' }).tracing).toEqual({
      endpoint: 'http://localhost:4318/v1/traces',
      protocol: 'http/protobuf',
      headers: {},
      resource: { 'service.name': 'memd' },
      sampler: { root: 'always_on', ratio: 1, parentBased: true },
    });
  });

  it('reads the endpoint, protocol, headers, resource and sampler, the per-signal variables first', () => {
    const tracing = loadConfig({
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/',
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf',
      OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/json',
      OTEL_EXPORTER_OTLP_HEADERS: 'a=1, b=two%20words',
      OTEL_EXPORTER_OTLP_TRACES_HEADERS: 'b=3',
      OTEL_RESOURCE_ATTRIBUTES: 'service.name=from-attributes,deployment.environment=prod',
      OTEL_TRACES_SAMPLER: 'TraceIdRatio',
      OTEL_TRACES_SAMPLER_ARG: '0.25',
    }).tracing;
    expect(tracing).toEqual({
      endpoint: 'http://collector:4318/v1/traces',
      protocol: 'http/json',
      headers: { a: '1', b: '3' },
      resource: { 'service.name': 'from-attributes', 'deployment.environment': 'prod' },
      sampler: { root: 'traceidratio', ratio: 0.25, parentBased: false },
    });
    const named = loadConfig({
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://c/traces',
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://ignored',
      OTEL_SERVICE_NAME: 'agent-memory',
      OTEL_RESOURCE_ATTRIBUTES: 'service.name=other',
    }).tracing;
    expect(named).toMatchObject({ endpoint: 'http://c/traces', resource: { 'service.name': 'agent-memory' } });
  });

  it('refuses what it cannot export', () => {
    expect(refusal({ OTEL_TRACES_EXPORTER: 'otlp,zipkin,jaeger' })).toBe(
      "OTEL_TRACES_EXPORTER: only otlp (or none) is supported, got 'zipkin,jaeger'",
    );
    expect(refusal({ OTEL_TRACES_EXPORTER: 'otlp', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' })).toBe(
      "OTEL_EXPORTER_OTLP_PROTOCOL must be http/protobuf or http/json (OTLP over HTTP, port 4318), got 'grpc'",
    );
    expect(refusal({ OTEL_TRACES_EXPORTER: 'otlp', OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'HTTP/JSON' })).toBe(
      "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL must be http/protobuf or http/json (OTLP over HTTP, port 4318), got 'HTTP/JSON'",
    );
    expect(refusal({ OTEL_TRACES_EXPORTER: 'otlp', OTEL_TRACES_SAMPLER: 'sometimes' })).toBe(
      "OTEL_TRACES_SAMPLER must be one of always_on, always_off, traceidratio, parentbased_always_on, parentbased_always_off, parentbased_traceidratio, got 'sometimes'",
    );
    for (const raw of ['1.5', '-0.1', 'half']) {
      expect(refusal({ OTEL_TRACES_EXPORTER: 'otlp', OTEL_TRACES_SAMPLER_ARG: raw })).toBe(
        `OTEL_TRACES_SAMPLER_ARG must be a ratio between 0 and 1, got '${raw}'`,
      );
    }
    expect(refusal({ OTEL_TRACES_EXPORTER: 'otlp', OTEL_EXPORTER_OTLP_HEADERS: 'a=1,novalue' })).toBe(
      "OTEL_EXPORTER_OTLP_HEADERS must be key=value pairs separated by commas, got 'novalue'",
    );
    expect(refusal({ OTEL_TRACES_EXPORTER: 'otlp', OTEL_RESOURCE_ATTRIBUTES: '=x' })).toBe(
      "OTEL_RESOURCE_ATTRIBUTES must be key=value pairs separated by commas, got '=x'",
    );
    expect(refusal({ OTEL_SDK_DISABLED: 'perhaps' })).toBe("OTEL_SDK_DISABLED must be true or false, got 'perhaps'");
  });
});

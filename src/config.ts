import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';

/** Every MEMD_* variable, parsed and typed in one place. */
export interface Config {
  host: string;
  port: number;
  dataDir: string;
  logLevel: string;
  /** Largest accepted request body for ordinary routes, in bytes. */
  bodyLimitBytes: number;
  /** Largest accepted body of a workspace import, in bytes. */
  importBodyLimitBytes: number;
  /** Grace period for in-flight requests on SIGTERM/SIGINT. */
  shutdownTimeoutMs: number;
  storage: StorageConfig;
  auth: { adminKey: string | undefined };
  embedding: EmbeddingConfig;
  llm: LlmConfig;
  tasks: { concurrency: number; pollIntervalMs: number; leaseMs: number; maxAttempts: number };
  recall: { cacheEntries: number; cacheTtlMs: number };
  sandbox: SandboxConfig;
  graph: GraphConfig;
  rateLimit: { perMinute: number };
  secrets: SecretsConfig;
}

export type StorageConfig =
  | { kind: 'sqlite'; path: string }
  | { kind: 'postgres'; url: string; poolSize: number; schema: string | undefined };

export interface EmbeddingConfig {
  provider: 'local' | 'openai' | 'transformers' | 'hash';
  model: string | undefined;
  baseUrl: string | undefined;
  apiKey: string | undefined;
  /** Required by nothing; lets `openai` skip its probe call and `hash` pick its width. */
  dimensions: number | undefined;
  workers: number;
  timeoutMs: number;
}

export interface LlmConfig {
  provider: 'none' | 'openai' | 'anthropic' | 'google';
  model: string | undefined;
  baseUrl: string | undefined;
  apiKey: string | undefined;
  timeoutMs: number;
  maxRetries: number;
}

/** Bounds of graph analysis and the knowledgebase over one workspace. */
export interface GraphConfig {
  /** Newest active memories taken into an analysis; beyond it the response says `truncated`. */
  maxNodes: number;
  /** Associations among them taken into an analysis. */
  maxEdges: number;
  /** Nodes + memory pairs from which analysis runs in a worker thread instead of on the event loop. */
  workerMinSize: number;
}

/** Where the key that seals MCP env values and data-provider `encrypted_args` comes from. */
export interface SecretsConfig {
  /** MEMD_SECRET_KEY decoded: 32 bytes. */
  key: Buffer | undefined;
  /** Created once (0600) when no key is given and the engine is SQLite; never in the database. */
  keyFile: string;
}

export interface SandboxConfig {
  maxLive: number;
  executionTimeoutMs: number;
  memoryLimitBytes: number;
  idleEvictMs: number;
  maxOutputChars: number;
}

type Env = Record<string, string | undefined>;

export class ConfigError extends Error {
  override name = 'ConfigError';
}

function text(env: Env, key: string): string | undefined {
  const value = env[key]?.trim();
  return value === undefined || value === '' ? undefined : value;
}

function integer(env: Env, key: string, fallback: number, min: number, max: number): number {
  const raw = text(env, key);
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(`${key} must be an integer between ${min} and ${max}, got '${raw}'`);
  }
  return value;
}

function oneOf<T extends string>(env: Env, key: string, allowed: readonly T[], fallback: T): T {
  const raw = text(env, key)?.toLowerCase();
  if (raw === undefined) return fallback;
  if (!(allowed as readonly string[]).includes(raw)) {
    throw new ConfigError(`${key} must be one of ${allowed.join(', ')}, got '${raw}'`);
  }
  return raw as T;
}

/** A 32-byte key written as 64 hex digits or base64 (standard or URL-safe). */
function secretKey(env: Env, key: string): Buffer | undefined {
  const raw = text(env, key);
  if (raw === undefined) return undefined;
  const decoded = /^[0-9a-f]{64}$/i.test(raw) ? Buffer.from(raw, 'hex') : /^[A-Za-z0-9+/_-]+={0,2}$/.test(raw) ? Buffer.from(raw, 'base64') : undefined;
  if (decoded?.length !== 32) throw new ConfigError(`${key} must be 32 bytes written as 64 hex digits or base64 (e.g. \`openssl rand -base64 32\`)`);
  return decoded;
}

export function loadConfig(env: Env = process.env): Config {
  const dataDir = resolve(text(env, 'MEMD_DATA_DIR') ?? './data');
  const storageKind = oneOf(env, 'MEMD_STORAGE', ['sqlite', 'postgres'] as const, 'sqlite');
  let storage: StorageConfig;
  if (storageKind === 'postgres') {
    const url = text(env, 'MEMD_DATABASE_URL');
    if (!url) throw new ConfigError('MEMD_STORAGE=postgres needs MEMD_DATABASE_URL (postgres://user:pass@host:5432/db)');
    storage = { kind: 'postgres', url, poolSize: integer(env, 'MEMD_DATABASE_POOL_SIZE', 10, 1, 200), schema: text(env, 'MEMD_DATABASE_SCHEMA') };
  } else {
    storage = { kind: 'sqlite', path: resolve(dataDir, text(env, 'MEMD_SQLITE_FILE') ?? 'memd.sqlite') };
  }

  const llmProvider = oneOf(env, 'MEMD_LLM_PROVIDER', ['none', 'openai', 'anthropic', 'google'] as const, 'none');
  const llmModel = text(env, 'MEMD_LLM_MODEL');
  if (llmProvider !== 'none' && !llmModel) throw new ConfigError(`MEMD_LLM_PROVIDER=${llmProvider} needs MEMD_LLM_MODEL`);
  if (llmProvider === 'openai' && !text(env, 'MEMD_LLM_BASE_URL')) {
    throw new ConfigError('MEMD_LLM_PROVIDER=openai needs MEMD_LLM_BASE_URL (e.g. https://api.openai.com/v1)');
  }

  const embeddingProvider = oneOf(env, 'MEMD_EMBEDDING_PROVIDER', ['local', 'openai', 'transformers', 'hash'] as const, 'local');
  if (embeddingProvider === 'openai' && !text(env, 'MEMD_EMBEDDING_BASE_URL')) {
    throw new ConfigError('MEMD_EMBEDDING_PROVIDER=openai needs MEMD_EMBEDDING_BASE_URL');
  }
  if (embeddingProvider === 'transformers' && !text(env, 'MEMD_EMBEDDING_MODEL')) {
    throw new ConfigError('MEMD_EMBEDDING_PROVIDER=transformers needs MEMD_EMBEDDING_MODEL (a Hugging Face id or a local path)');
  }

  const cores = availableParallelism();
  return {
    host: text(env, 'MEMD_HOST') ?? '127.0.0.1',
    port: integer(env, 'MEMD_PORT', 61001, 0, 65535),
    dataDir,
    logLevel: text(env, 'MEMD_LOG_LEVEL') ?? 'info',
    bodyLimitBytes: integer(env, 'MEMD_BODY_LIMIT_BYTES', 10 * 1024 * 1024, 1024, 1024 ** 3),
    importBodyLimitBytes: integer(env, 'MEMD_IMPORT_BODY_LIMIT_BYTES', 512 * 1024 * 1024, 1024, 16 * 1024 ** 3),
    shutdownTimeoutMs: integer(env, 'MEMD_SHUTDOWN_TIMEOUT_MS', 10_000, 0, 600_000),
    storage,
    auth: { adminKey: text(env, 'MEMD_ADMIN_KEY') },
    embedding: {
      provider: embeddingProvider,
      model: text(env, 'MEMD_EMBEDDING_MODEL'),
      baseUrl: text(env, 'MEMD_EMBEDDING_BASE_URL'),
      apiKey: text(env, 'MEMD_EMBEDDING_API_KEY'),
      dimensions: text(env, 'MEMD_EMBEDDING_DIMENSIONS') === undefined ? undefined : integer(env, 'MEMD_EMBEDDING_DIMENSIONS', 0, 8, 8192),
      workers: integer(env, 'MEMD_EMBEDDING_WORKERS', Math.max(1, Math.min(2, cores)), 1, 64),
      timeoutMs: integer(env, 'MEMD_EMBEDDING_TIMEOUT_MS', 30_000, 100, 600_000),
    },
    llm: {
      provider: llmProvider,
      model: llmModel,
      baseUrl: text(env, 'MEMD_LLM_BASE_URL'),
      apiKey: text(env, 'MEMD_LLM_API_KEY'),
      timeoutMs: integer(env, 'MEMD_LLM_TIMEOUT_MS', 60_000, 100, 600_000),
      maxRetries: integer(env, 'MEMD_LLM_MAX_RETRIES', 2, 0, 10),
    },
    tasks: {
      concurrency: integer(env, 'MEMD_TASK_CONCURRENCY', 2, 1, 64),
      pollIntervalMs: integer(env, 'MEMD_TASK_POLL_MS', 500, 10, 60_000),
      leaseMs: integer(env, 'MEMD_TASK_LEASE_MS', 60_000, 1_000, 3_600_000),
      maxAttempts: integer(env, 'MEMD_TASK_MAX_ATTEMPTS', 5, 1, 100),
    },
    recall: {
      cacheEntries: integer(env, 'MEMD_RECALL_CACHE_ENTRIES', 4096, 0, 1_000_000),
      cacheTtlMs: integer(env, 'MEMD_RECALL_CACHE_TTL_MS', 300_000, 0, 86_400_000),
    },
    sandbox: {
      maxLive: integer(env, 'MEMD_SANDBOX_MAX_LIVE', 8, 1, 1024),
      executionTimeoutMs: integer(env, 'MEMD_SANDBOX_TIMEOUT_MS', 30_000, 100, 3_600_000),
      memoryLimitBytes: integer(env, 'MEMD_SANDBOX_MEMORY_BYTES', 268_435_456, 16 * 1024 * 1024, 16 * 1024 ** 3),
      idleEvictMs: integer(env, 'MEMD_SANDBOX_IDLE_MS', 600_000, 1_000, 86_400_000),
      maxOutputChars: integer(env, 'MEMD_SANDBOX_MAX_OUTPUT_CHARS', 50_000, 100, 10_000_000),
    },
    graph: {
      maxNodes: integer(env, 'MEMD_GRAPH_MAX_NODES', 20_000, 10, 1_000_000),
      maxEdges: integer(env, 'MEMD_GRAPH_MAX_EDGES', 200_000, 10, 10_000_000),
      workerMinSize: integer(env, 'MEMD_GRAPH_WORKER_MIN_SIZE', 5_000, 0, 100_000_000),
    },
    rateLimit: { perMinute: integer(env, 'MEMD_RATE_LIMIT_PER_MINUTE', 0, 0, 10_000_000) },
    secrets: { key: secretKey(env, 'MEMD_SECRET_KEY'), keyFile: resolve(dataDir, 'secret.key') },
  };
}

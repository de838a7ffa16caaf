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
  /** Deepest nesting of objects and arrays in JSON a client sends (a body, an import line, a form field). */
  jsonMaxDepth: number;
  /** Grace period for in-flight requests on SIGTERM/SIGINT. */
  shutdownTimeoutMs: number;
  storage: StorageConfig;
  auth: { adminKey: string | undefined };
  /** `autoCreate`: a workspace a request names for the first time is created (for callers who may create workspaces). */
  workspaces: { autoCreate: boolean };
  embedding: EmbeddingConfig;
  llm: LlmConfig;
  tasks: { concurrency: number; pollIntervalMs: number; leaseMs: number; maxAttempts: number };
  /** `reranker`: `llm` reorders uncertain recalls with the configured language model; `none` by default. */
  recall: { cacheEntries: number; cacheTtlMs: number; reranker: 'none' | 'llm' };
  sandbox: SandboxConfig;
  graph: GraphConfig;
  documents: DocumentsConfig;
  ocr: OcrConfig;
  transcription: TranscriptionConfig;
  /** Requests per client (API key, or address without auth) and minute on /v1, counted by each node; 0: no limit. */
  rateLimit: { perMinute: number };
  secrets: SecretsConfig;
  /** `enabled`: MCP over streamable HTTP at /mcp, beside /v1 (same keys, same workspaces). */
  mcp: { enabled: boolean };
  /** `/metrics` (Prometheus): served unless disabled; with MEMD_ADMIN_KEY set it takes the admin key or `key`. */
  metrics: { enabled: boolean; key: string | undefined };
  /** OpenTelemetry trace export, switched on by the standard OTEL_* variables; null when off (the default). */
  tracing: TracingConfig | null;
}

/** Where and how spans are exported: OTLP over HTTP, from the standard OTEL_* variables. */
export interface TracingConfig {
  /** The full URL spans are POSTed to (…/v1/traces). */
  endpoint: string;
  protocol: 'http/protobuf' | 'http/json';
  headers: Record<string, string>;
  /** Resource attributes: `service.name` (OTEL_SERVICE_NAME, default memd) and OTEL_RESOURCE_ATTRIBUTES. */
  resource: Record<string, string>;
  /** OTEL_TRACES_SAMPLER: which root traces are kept (`ratio` for traceidratio), and whether a caller's choice wins. */
  sampler: { root: 'always_on' | 'always_off' | 'traceidratio'; ratio: number; parentBased: boolean };
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
  /** Most worker threads of the `local` model; one is always kept, the others start under load. */
  workers: number;
  /** A `local` worker beyond the first stops after this long without work (unset: the provider's default). */
  workerIdleMs: number | undefined;
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

export interface DocumentsConfig {
  /** Largest accepted upload, in bytes (413 above it). */
  maxBytes: number;
  /** Deadline of text extraction for one document; the job fails with `extraction_timeout` after it. */
  extractTimeoutMs: number;
  /** Heap of the extraction thread, in MiB; a document that needs more fails with `extraction_out_of_memory`. */
  extractMemoryMb: number;
  /** Most bytes a Word document may decompress to; beyond it (declared or actual) the job fails with `document_too_large`. */
  maxExpandedBytes: number;
  /**
   * What the thread that draws a scanned PDF page for OCR may hold (its heap, and the buffers of the images it
   * decodes), in MiB; a page that needs more is listed in the job's `page_errors` as `render_out_of_memory`.
   */
  renderMemoryMb: number;
}
/**
 * Reading text from images (image uploads, PDF pages without a text layer): `local` runs tesseract.js in this
 * process's worker threads, `peer` sends each image to an embedding peer's `POST /v1/ocr`, `off` reads no images.
 */
export interface OcrConfig {
  provider: 'local' | 'peer' | 'off';
  /** The peer's base URL, ending before /ocr (e.g. http://127.0.0.1:61051/v1). */
  baseUrl: string | undefined;
  apiKey: string | undefined;
  /** Deadline of one page: rendering (a PDF page) and recognition. */
  timeoutMs: number;
  /** Largest image read, in pixels (width × height): what bounds the memory one page takes. */
  maxPixels: number;
  /**
   * `local`: recognition threads. Each holds the model (about 60 MiB) and, until it stops after a minute idle, the
   * memory its largest page took: about 220 MiB after an A4 page at 300 dpi, 480 MiB at `maxPixels` (BENCHMARKS.md).
   */
  workers: number;
}

/** Audio uploads go to any OpenAI-compatible `POST /audio/transcriptions`; without a base URL audio is refused. */
export interface TranscriptionConfig {
  baseUrl: string | undefined;
  model: string;
  apiKey: string | undefined;
  timeoutMs: number;
}

/**
 * When the spare sandbox (an interpreter loaded ahead of need, about 100 MiB) is started: at `start` of the
 * service, so even the first session starts at once; at `first-use` (the default), so a server whose context
 * environment is never used pays nothing (its first session waits for a cold start, ~3 s); or never (`off`).
 */
export type SandboxSpare = 'start' | 'first-use' | 'off';
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
  spare: SandboxSpare;
  /**
   * When a call that changed variables is checkpointed: `sync`, before it answers, so that any node continues from
   * it (the default on Postgres, where several nodes share the database); `delayed`, `checkpointDelayMs` after it, off
   * the response path (the default on SQLite, whose file one process serves).
   */
  checkpoint: 'sync' | 'delayed';
  /** With `delayed`: this long after the change (0: only on checkpoint, eviction and shutdown). */
  checkpointDelayMs: number;
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

function flag(env: Env, key: string, fallback: boolean): boolean {
  const raw = text(env, key)?.toLowerCase();
  if (raw === undefined) return fallback;
  if (['true', '1', 'yes', 'on'].includes(raw)) return true;
  if (['false', '0', 'no', 'off'].includes(raw)) return false;
  throw new ConfigError(`${key} must be true or false, got '${raw}'`);
}

const list = (value: string | undefined): string[] => (value ?? '').split(',').map((item) => item.trim()).filter((item) => item !== '');

const EMBEDDING_PROVIDERS = ['local', 'openai', 'transformers', 'hash'] as const;

/** OCR settings; `provider` is MEMD_OCR_PROVIDER for memd and MEMD_PEER_OCR for the peer (which serves `local` or nothing). */
function ocrConfig(env: Env, provider: OcrConfig['provider']): OcrConfig {
  const baseUrl = text(env, 'MEMD_OCR_BASE_URL');
  if (provider === 'peer' && !baseUrl) throw new ConfigError('MEMD_OCR_PROVIDER=peer needs MEMD_OCR_BASE_URL (the peer, e.g. http://127.0.0.1:61051/v1)');
  return {
    provider,
    baseUrl: baseUrl?.replace(/\/+$/, ''),
    apiKey: text(env, 'MEMD_OCR_API_KEY'),
    timeoutMs: integer(env, 'MEMD_OCR_TIMEOUT_MS', 120_000, 1_000, 3_600_000),
    maxPixels: integer(env, 'MEMD_OCR_MAX_PIXELS', 25_000_000, 10_000, 400_000_000),
    workers: integer(env, 'MEMD_OCR_WORKERS', 1, 1, 16),
  };
}

/** One embedding provider's settings: the provider and model given, everything else from MEMD_EMBEDDING_*. */
function embeddingConfig(env: Env, provider: EmbeddingConfig['provider'], model: string | undefined): EmbeddingConfig {
  if (provider === 'openai' && !text(env, 'MEMD_EMBEDDING_BASE_URL')) {
    throw new ConfigError('MEMD_EMBEDDING_PROVIDER=openai needs MEMD_EMBEDDING_BASE_URL');
  }
  if (provider === 'transformers' && !model) {
    throw new ConfigError('MEMD_EMBEDDING_PROVIDER=transformers needs MEMD_EMBEDDING_MODEL (a Hugging Face id or a local path)');
  }
  return {
    provider,
    model,
    baseUrl: text(env, 'MEMD_EMBEDDING_BASE_URL'),
    apiKey: text(env, 'MEMD_EMBEDDING_API_KEY'),
    dimensions: text(env, 'MEMD_EMBEDDING_DIMENSIONS') === undefined ? undefined : integer(env, 'MEMD_EMBEDDING_DIMENSIONS', 0, 8, 8192),
    workers: integer(env, 'MEMD_EMBEDDING_WORKERS', Math.max(1, Math.min(2, availableParallelism())), 1, 64),
    workerIdleMs: text(env, 'MEMD_EMBEDDING_WORKER_IDLE_MS') === undefined ? undefined : integer(env, 'MEMD_EMBEDDING_WORKER_IDLE_MS', 0, 0, 3_600_000),
    timeoutMs: integer(env, 'MEMD_EMBEDDING_TIMEOUT_MS', 30_000, 100, 600_000),
  };
}

/** A 32-byte key written as 64 hex digits or base64 (standard or URL-safe). */
function secretKey(env: Env, key: string): Buffer | undefined {
  const raw = text(env, key);
  if (raw === undefined) return undefined;
  const decoded = /^[0-9a-f]{64}$/i.test(raw) ? Buffer.from(raw, 'hex') : /^[A-Za-z0-9+/_-]+={0,2}$/.test(raw) ? Buffer.from(raw, 'base64') : undefined;
  if (decoded?.length !== 32) throw new ConfigError(`${key} must be 32 bytes written as 64 hex digits or base64 (e.g. \`openssl rand -base64 32\`)`);
  return decoded;
}

/** `k1=v1,k2=v2` with URL-encoded values (OTEL_EXPORTER_OTLP_HEADERS, OTEL_RESOURCE_ATTRIBUTES). */
function keyValues(env: Env, key: string): Record<string, string> {
  const pairs: Record<string, string> = {};
  for (const item of list(text(env, key))) {
    const at = item.indexOf('=');
    if (at <= 0) throw new ConfigError(`${key} must be key=value pairs separated by commas, got '${item}'`);
    pairs[decodeURIComponent(item.slice(0, at).trim())] = decodeURIComponent(item.slice(at + 1).trim());
  }
  return pairs;
}

const SAMPLERS = ['always_on', 'always_off', 'traceidratio', 'parentbased_always_on', 'parentbased_always_off', 'parentbased_traceidratio'] as const;

/**
 * Tracing is off unless the standard variables ask for it: OTEL_TRACES_EXPORTER=otlp, or an OTLP endpoint given
 * (OTEL_EXPORTER_OTLP_ENDPOINT / OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) with no exporter named. OTEL_SDK_DISABLED=true
 * and OTEL_TRACES_EXPORTER=none keep it off. Only OTLP over HTTP is built in (protobuf, the OTLP default, or JSON).
 */
function tracingConfig(env: Env): TracingConfig | null {
  if (flag(env, 'OTEL_SDK_DISABLED', false)) return null;
  const exporters = list(text(env, 'OTEL_TRACES_EXPORTER')?.toLowerCase());
  const unsupported = exporters.filter((name) => name !== 'otlp' && name !== 'none');
  if (unsupported.length > 0) throw new ConfigError(`OTEL_TRACES_EXPORTER: only otlp (or none) is supported, got '${unsupported.join(',')}'`);
  const tracesEndpoint = text(env, 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT');
  const baseEndpoint = text(env, 'OTEL_EXPORTER_OTLP_ENDPOINT');
  const on = exporters.includes('otlp') || (exporters.length === 0 && (tracesEndpoint ?? baseEndpoint) !== undefined);
  if (!on) return null;
  const protocol = text(env, 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL') ?? text(env, 'OTEL_EXPORTER_OTLP_PROTOCOL') ?? 'http/protobuf';
  if (protocol !== 'http/protobuf' && protocol !== 'http/json') {
    throw new ConfigError(`OTEL_EXPORTER_OTLP_PROTOCOL must be http/protobuf or http/json (OTLP over HTTP, port 4318), got '${protocol}'`);
  }
  const sampler = oneOf(env, 'OTEL_TRACES_SAMPLER', SAMPLERS, 'parentbased_always_on');
  const ratio = text(env, 'OTEL_TRACES_SAMPLER_ARG') === undefined ? 1 : Number(text(env, 'OTEL_TRACES_SAMPLER_ARG'));
  if (!(ratio >= 0 && ratio <= 1)) throw new ConfigError(`OTEL_TRACES_SAMPLER_ARG must be a ratio between 0 and 1, got '${text(env, 'OTEL_TRACES_SAMPLER_ARG')}'`);
  return {
    // The per-signal variable is the URL itself; the general one is a base to which the signal's path is added.
    endpoint: tracesEndpoint ?? `${(baseEndpoint ?? 'http://localhost:4318').replace(/\/+$/, '')}/v1/traces`,
    protocol,
    headers: { ...keyValues(env, 'OTEL_EXPORTER_OTLP_HEADERS'), ...keyValues(env, 'OTEL_EXPORTER_OTLP_TRACES_HEADERS') },
    resource: { 'service.name': 'memd', ...keyValues(env, 'OTEL_RESOURCE_ATTRIBUTES'), ...(text(env, 'OTEL_SERVICE_NAME') && { 'service.name': text(env, 'OTEL_SERVICE_NAME')! }) },
    sampler: { root: sampler.replace('parentbased_', '') as TracingConfig['sampler']['root'], ratio, parentBased: sampler.startsWith('parentbased_') },
  };
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

  const recallReranker = oneOf(env, 'MEMD_RECALL_RERANKER', ['none', 'llm'] as const, 'none');
  if (recallReranker === 'llm' && llmProvider === 'none') throw new ConfigError('MEMD_RECALL_RERANKER=llm needs a language model (MEMD_LLM_PROVIDER)');

  const embeddingProvider = oneOf(env, 'MEMD_EMBEDDING_PROVIDER', EMBEDDING_PROVIDERS, 'local');

  return {
    host: text(env, 'MEMD_HOST') ?? '127.0.0.1',
    port: integer(env, 'MEMD_PORT', 61001, 0, 65535),
    dataDir,
    logLevel: text(env, 'MEMD_LOG_LEVEL') ?? 'info',
    bodyLimitBytes: integer(env, 'MEMD_BODY_LIMIT_BYTES', 10 * 1024 * 1024, 1024, 1024 ** 3),
    importBodyLimitBytes: integer(env, 'MEMD_IMPORT_BODY_LIMIT_BYTES', 512 * 1024 * 1024, 1024, 16 * 1024 ** 3),
    // Far below where recursive walks of a value (validation, JSON.stringify, drivers) run out of stack.
    jsonMaxDepth: integer(env, 'MEMD_JSON_MAX_DEPTH', 64, 2, 1000),
    shutdownTimeoutMs: integer(env, 'MEMD_SHUTDOWN_TIMEOUT_MS', 10_000, 0, 600_000),
    storage,
    auth: { adminKey: text(env, 'MEMD_ADMIN_KEY') },
    workspaces: { autoCreate: flag(env, 'MEMD_WORKSPACE_AUTO_CREATE', true) },
    embedding: embeddingConfig(env, embeddingProvider, text(env, 'MEMD_EMBEDDING_MODEL')),
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
      reranker: recallReranker,
    },
    sandbox: {
      maxLive: integer(env, 'MEMD_SANDBOX_MAX_LIVE', 8, 1, 1024),
      executionTimeoutMs: integer(env, 'MEMD_SANDBOX_TIMEOUT_MS', 30_000, 100, 3_600_000),
      memoryLimitBytes: integer(env, 'MEMD_SANDBOX_MEMORY_BYTES', 268_435_456, 16 * 1024 * 1024, 16 * 1024 ** 3),
      idleEvictMs: integer(env, 'MEMD_SANDBOX_IDLE_MS', 600_000, 1_000, 86_400_000),
      maxOutputChars: integer(env, 'MEMD_SANDBOX_MAX_OUTPUT_CHARS', 50_000, 100, 10_000_000),
      spare: oneOf(env, 'MEMD_SANDBOX_SPARE', ['start', 'first-use', 'off'] as const, 'first-use'),
      checkpoint: oneOf(env, 'MEMD_SANDBOX_CHECKPOINT', ['sync', 'delayed'] as const, storageKind === 'postgres' ? 'sync' : 'delayed'),
      checkpointDelayMs: integer(env, 'MEMD_SANDBOX_CHECKPOINT_DELAY_MS', 5_000, 0, 3_600_000),
    },
    graph: {
      maxNodes: integer(env, 'MEMD_GRAPH_MAX_NODES', 20_000, 10, 1_000_000),
      maxEdges: integer(env, 'MEMD_GRAPH_MAX_EDGES', 200_000, 10, 10_000_000),
      workerMinSize: integer(env, 'MEMD_GRAPH_WORKER_MIN_SIZE', 5_000, 0, 100_000_000),
    },
    documents: {
      maxBytes: integer(env, 'MEMD_DOCUMENT_MAX_BYTES', 50 * 1024 * 1024, 1, 1024 ** 3),
      extractTimeoutMs: integer(env, 'MEMD_DOCUMENT_EXTRACT_TIMEOUT_MS', 300_000, 100, 3_600_000),
      extractMemoryMb: integer(env, 'MEMD_DOCUMENT_EXTRACT_MEMORY_MB', 1024, 32, 16_384),
      maxExpandedBytes: integer(env, 'MEMD_DOCUMENT_MAX_EXPANDED_BYTES', 256 * 1024 * 1024, 1024, 16 * 1024 ** 3),
      renderMemoryMb: integer(env, 'MEMD_DOCUMENT_RENDER_MEMORY_MB', 512, 64, 16_384),
    },
    ocr: ocrConfig(env, oneOf(env, 'MEMD_OCR_PROVIDER', ['local', 'peer', 'off'] as const, 'local')),
    transcription: {
      baseUrl: text(env, 'MEMD_TRANSCRIPTION_BASE_URL')?.replace(/\/+$/, ''),
      model: text(env, 'MEMD_TRANSCRIPTION_MODEL') ?? 'whisper-1',
      apiKey: text(env, 'MEMD_TRANSCRIPTION_API_KEY'),
      timeoutMs: integer(env, 'MEMD_TRANSCRIPTION_TIMEOUT_MS', 600_000, 1_000, 3_600_000),
    },
    rateLimit: { perMinute: integer(env, 'MEMD_RATE_LIMIT_PER_MINUTE', 0, 0, 10_000_000) },
    secrets: { key: secretKey(env, 'MEMD_SECRET_KEY'), keyFile: resolve(dataDir, 'secret.key') },
    mcp: { enabled: flag(env, 'MEMD_MCP_ENABLED', true) },
    metrics: { enabled: flag(env, 'MEMD_METRICS_ENABLED', true), key: text(env, 'MEMD_METRICS_KEY') },
    tracing: tracingConfig(env),
  };
}

/** A language-model profile of the peer: a request naming it, one of its aliases or its model goes to its upstream. */
export interface LlmProfile {
  name: string;
  /** OpenAI-compatible base URL, ending before /chat/completions (e.g. http://127.0.0.1:8000/v1). */
  baseUrl: string;
  /** The model id the upstream knows. */
  model: string;
  apiKey: string | undefined;
  aliases: string[];
}

/** The embedding peer (`npm run peer`): a separate, stateless process. */
export interface PeerConfig {
  host: string;
  port: number;
  logLevel: string;
  bodyLimitBytes: number;
  /** Bearer key every /v1 request must carry; unset, the peer is open (it binds to localhost by default). */
  apiKey: string | undefined;
  /** Requests one provider serves at once; more wait their turn (and count as queued in /health/load). */
  concurrency: number;
  /** The embedding providers served; the first answers requests that name no model. */
  embedding: EmbeddingConfig[];
  /** `POST /v1/ocr`: `local` (tesseract.js in worker threads) or `off` (501). */
  ocr: OcrConfig;
  llm: { enabled: boolean; profiles: LlmProfile[]; defaultProfile: string | undefined; timeoutMs: number };
}

/** One provider per entry of MEMD_PEER_EMBEDDING_PROVIDERS: `local`, `hash`, `transformers:<model>`, `openai:<model>`. */
function peerEmbedding(env: Env): EmbeddingConfig[] {
  const entries = list(text(env, 'MEMD_PEER_EMBEDDING_PROVIDERS') ?? 'local');
  if (entries.length === 0) throw new ConfigError('MEMD_PEER_EMBEDDING_PROVIDERS names no provider');
  return entries.map((entry) => {
    const [name = '', ...model] = entry.split(':');
    const provider = EMBEDDING_PROVIDERS.find((p) => p === name.toLowerCase());
    if (!provider) throw new ConfigError(`MEMD_PEER_EMBEDDING_PROVIDERS: '${name}' is not one of ${EMBEDDING_PROVIDERS.join(', ')}`);
    const takesModel = provider === 'transformers' || provider === 'openai';
    return embeddingConfig(env, provider, model.join(':') || (takesModel ? text(env, 'MEMD_EMBEDDING_MODEL') : undefined));
  });
}

/** Profiles from MEMD_PEER_LLM_PROFILES, each configured by MEMD_PEER_LLM_<NAME>_{BASE_URL,MODEL,API_KEY,ALIASES}. */
function peerLlmProfiles(env: Env): LlmProfile[] {
  const profiles = list(text(env, 'MEMD_PEER_LLM_PROFILES')).map((name) => {
    const key = `MEMD_PEER_LLM_${name.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`;
    const baseUrl = text(env, `${key}_BASE_URL`);
    const model = text(env, `${key}_MODEL`);
    if (!baseUrl || !model) throw new ConfigError(`language-model profile '${name}' needs ${key}_BASE_URL and ${key}_MODEL`);
    return { name, baseUrl: baseUrl.replace(/\/+$/, ''), model, apiKey: text(env, `${key}_API_KEY`), aliases: list(text(env, `${key}_ALIASES`)) };
  });
  if (profiles.length === 0) throw new ConfigError('MEMD_PEER_LLM_ENABLED=true needs MEMD_PEER_LLM_PROFILES (comma-separated profile names)');
  return profiles;
}

/** The peer's settings, from MEMD_PEER_* (and MEMD_EMBEDDING_* for its providers); `memd peer --host/--port` set MEMD_PEER_HOST/PORT. */
export function loadPeerConfig(env: Env = process.env): PeerConfig {
  const enabled = flag(env, 'MEMD_PEER_LLM_ENABLED', false);
  const profiles = enabled ? peerLlmProfiles(env) : [];
  const defaultProfile = text(env, 'MEMD_PEER_LLM_DEFAULT_PROFILE') ?? profiles[0]?.name;
  if (enabled && !profiles.some((p) => p.name === defaultProfile)) throw new ConfigError(`MEMD_PEER_LLM_DEFAULT_PROFILE '${defaultProfile}' is not in MEMD_PEER_LLM_PROFILES`);
  return {
    host: text(env, 'MEMD_PEER_HOST') ?? '127.0.0.1',
    port: integer(env, 'MEMD_PEER_PORT', 61051, 0, 65535),
    logLevel: text(env, 'MEMD_LOG_LEVEL') ?? 'info',
    bodyLimitBytes: integer(env, 'MEMD_PEER_BODY_LIMIT_BYTES', 32 * 1024 * 1024, 1024, 1024 ** 3),
    apiKey: text(env, 'MEMD_PEER_API_KEY'),
    concurrency: integer(env, 'MEMD_PEER_CONCURRENCY', 4, 1, 1024),
    embedding: peerEmbedding(env),
    ocr: ocrConfig(env, oneOf(env, 'MEMD_PEER_OCR', ['local', 'off'] as const, 'local')),
    llm: { enabled, profiles, defaultProfile: enabled ? defaultProfile : undefined, timeoutMs: integer(env, 'MEMD_PEER_LLM_TIMEOUT_MS', 120_000, 100, 3_600_000) },
  };
}

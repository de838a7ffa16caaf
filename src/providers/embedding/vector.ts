import { AppError } from '../../errors.js';

/**
 * Blank text (empty or whitespace only) carries no meaning, and upstreams disagree about it: OpenAI
 * rejects '' with a 400, the USE graph fails on a text with no tokens, mean pooling over zero tokens
 * divides by zero. Every provider therefore maps blank text to one documented vector, e₀ = [1, 0, …, 0].
 */
export function isBlank(text: string): boolean {
  return text.trim() === '';
}

/** The fixed unit vector every provider returns for blank text. */
export function blankVector(dimensions: number): Float32Array {
  const vector = new Float32Array(dimensions);
  vector[0] = 1;
  return vector;
}

/**
 * Copies `values` into a new L2-normalised Float32Array. A zero or non-finite vector cannot be
 * normalised; `describeSource` names who produced it so the error says where to look.
 */
export function toUnitVector(values: ArrayLike<number>, describeSource: string): Float32Array {
  const vector = Float32Array.from(values);
  const norm = l2Norm(vector);
  if (!Number.isFinite(norm) || norm === 0) {
    throw new AppError(
      'provider_error',
      `${describeSource} returned a ${norm === 0 ? 'zero' : 'non-finite'} vector, which cannot be normalised`,
    );
  }
  for (let i = 0; i < vector.length; i++) vector[i] = vector[i]! / norm;
  return vector;
}

export function l2Norm(vector: ArrayLike<number>): number {
  let sum = 0;
  for (let i = 0; i < vector.length; i++) sum += vector[i]! * vector[i]!;
  return Math.sqrt(sum);
}

/**
 * Embeds only the non-blank texts (one call, order kept) and puts the blank vector at every blank
 * position. `dimensions` is asked for lazily: a provider may learn its width from the first answer.
 */
export async function embedSkippingBlanks(
  texts: readonly string[],
  dimensions: () => number,
  embedNonBlank: (texts: string[]) => Promise<Float32Array[]>,
): Promise<Float32Array[]> {
  const nonBlank = texts.filter((text) => !isBlank(text));
  const vectors = nonBlank.length === 0 ? [] : await embedNonBlank(nonBlank);
  let next = 0;
  return texts.map((text) => (isBlank(text) ? blankVector(dimensions()) : vectors[next++]!));
}

/** Cuts a row-major matrix into one unit vector per row, each with its own buffer. */
export function rowsToUnitVectors(rows: Float32Array, dimensions: number, describeSource: string): Float32Array[] {
  const vectors: Float32Array[] = [];
  for (let offset = 0; offset < rows.length; offset += dimensions) {
    vectors.push(toUnitVector(rows.subarray(offset, offset + dimensions), describeSource));
  }
  return vectors;
}

/** Cosine similarity of two vectors of the same width (0 when either is all zeros). */
export function cosine(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let dot = 0;
  let normA = 0;
  let normB = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    normA += a[i]! * a[i]!;
    normB += b[i]! * b[i]!;
  }
  return normA === 0 || normB === 0 ? 0 : dot / Math.sqrt(normA * normB);
}

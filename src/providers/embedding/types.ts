/**
 * A sentence embedder. Every vector it returns is L2-normalised, so cosine similarity is a dot product.
 * `name` + `model` + `dimensions` identify the vector space: the storage refuses to mix spaces.
 */
export interface EmbeddingProvider {
  /** Provider family: `local`, `openai`, `transformers` or `hash`. */
  readonly name: string;
  /** Model identifier within the family (a model id, a path, or a fixed label). */
  readonly model: string;
  /** Length of every vector; known once `init()` has resolved. */
  readonly dimensions: number;
  /** Loads weights / warms workers / probes the endpoint. Resolves when `embed` is ready to serve. */
  init(): Promise<void>;
  /** Embeds a batch; the result has one vector per input, in order. */
  embed(texts: readonly string[]): Promise<Float32Array[]>;
  close(): Promise<void>;
}

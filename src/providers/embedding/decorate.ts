import type { EmbeddingProvider } from './types.js';

/**
 * `inner` with some of its methods replaced (a cache, instrumentation). Name, model and dimensions read through:
 * the dimensions are known only once `init` has resolved, so they are never copied.
 */
export function decorateEmbedder(
  inner: EmbeddingProvider,
  methods: Partial<Pick<EmbeddingProvider, 'init' | 'embed' | 'close'>>,
): EmbeddingProvider {
  return {
    get name() {
      return inner.name;
    },
    get model() {
      return inner.model;
    },
    get dimensions() {
      return inner.dimensions;
    },
    init: () => inner.init(),
    embed: (texts) => inner.embed(texts),
    close: () => inner.close(),
    ...methods,
  };
}

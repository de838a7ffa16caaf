import { HashEmbeddingProvider } from '../../src/providers/embedding/hash.js';

/**
 * The `hash` embedder, told some synonyms: each text has its `other` words replaced by their `stored` words before it
 * is hashed, so "try out a pendant" embeds as "test a necklace". It stands in for an embedding model that knows
 * synonyms (the default model does, issue 24) in tests that must not load one; the keyword index sees the text as
 * written.
 */
export class SynonymEmbedder extends HashEmbeddingProvider {
  private readonly replacements: ReadonlyArray<readonly [RegExp, string]>;

  constructor(dimensions: number, synonyms: ReadonlyArray<readonly [other: string, stored: string]>) {
    super(dimensions);
    // Longest first, so that "give back" is replaced before a shorter synonym inside it could be.
    this.replacements = [...synonyms]
      .filter(([other, stored]) => other !== stored)
      .sort((a, b) => b[0].length - a[0].length)
      .map(([other, stored]) => [new RegExp(`\\b${other}\\b`, 'giu'), stored] as const);
  }

  override embed(texts: readonly string[]): Promise<Float32Array[]> {
    return super.embed(
      texts.map((text) => this.replacements.reduce((t, [other, stored]) => t.replace(other, stored), text)),
    );
  }
}

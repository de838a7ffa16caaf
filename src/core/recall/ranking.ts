/**
 * The ranking score of a direct candidate: a weighted sum of evidence features, each in 0..1. Rank fusion alone
 * (RRF) throws away how strong each arm's evidence is: a memory that matches every query word ranks like one
 * that matches a common one. Measured on LoCoMo (bench/locomo.ts), the arms' own scores carried most of the
 * gain; the RRF sum stays one feature among them.
 */
export interface RankingFeatures {
  /** The keyword arm's BM25 / ts_rank score over the best one for this query, times the square root of `coverage`. */
  keyword: number;
  /** Cosine similarity of the memory and the query (negative as 0). */
  similarity: number;
  /**
   * Cosine similarity of the memory and what the query asks about the entities it names (topical.ts); 0 when it names
   * none. Among many memories naming one person it is what tells them apart.
   */
  topical: number;
  /** Best cosine similarity of one of its atomic facts. */
  fact: number;
  /** Share of the query's words the memory contains. */
  coverage: number;
  /**
   * For a memory of someone the query names, where the names are most of its keyword weight: the share of the query's
   * words that match no memory whose synonyms the memory holds (unmatched.ts `heldSynonyms`); else 0.
   */
  synonym: number;
  /**
   * 1 when the memory contains every word of a query of two words or more. Keyword scores and coverage grade
   * matches, but a memory missing one word of four kept 0.75 of the coverage and, being shorter, as much BM25,
   * so opening with the name asked about, a slightly closer vector and a better rank in the arms put it first
   * (issue 24: "Anouk Holm works as a lawyer in Almaty" above the one memory of Anouk Holm's bicycle in Almaty).
   * Only stronger evidence of another kind, a much closer meaning, outranks a memory holding every word.
   */
  complete: number;
  /** Keyword evidence of the turns around it in its conversation (next to it x1, two away x0.5). */
  keywordContext: number;
  /** The weighted RRF sum over the arms that found it, over the largest possible. */
  fused: number;
  /** 1 when the memory is about an entity the query names (its subject or opening words). */
  about: number;
  /** 1 when the memory's event time falls in a time window the query names ("on 31 July, 2023"). */
  inWindow: number;
}

export type RankingWeights = Readonly<RankingFeatures>;

/** The ranking score function for these weights (a recall scores every candidate with the same weights). */
export function rankingScorer(weights: RankingWeights): (features: RankingFeatures) => number {
  const terms = (Object.keys(weights) as Array<keyof RankingFeatures>).map((key) => [key, weights[key]] as const);
  const total = terms.reduce((sum, [, weight]) => sum + weight, 0);
  return (features) => {
    if (total <= 0) return 0;
    let score = 0;
    for (const [key, weight] of terms) score += weight * Math.max(0, features[key]);
    return score / total;
  };
}

/** Distance decay of `keywordContext`: a turn right next to a strong match counts fully, two away half. */
export const CONTEXT_DISTANCE_DECAY = [1, 0.5];

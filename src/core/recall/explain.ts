import type { ArmName, ArmResult } from './fusion.js';

/**
 * Why a recall answered what it did, asked for with `explain: true` (the explorer's recall playground shows it).
 * Nothing here is computed unless asked: the arms' lists are kept by the pipeline anyway, and ranks are read off
 * them only for the memories explained.
 */

/** How a result entered the ranking: found by the arms, inherited from a conversation turn, or by expansion. */
export type FoundBy = 'search' | 'context' | 'association';

/** The place (from 1) each arm that found the memory gave it. */
export type ArmRanks = Partial<Record<ArmName, number>>;

/** The factors multiplied into a direct candidate's ranking score (1: no effect). */
export interface Boosts {
  scope: number;
  recency: number;
  backlink: number;
}

export interface ResultExplanation {
  found_by: FoundBy;
  arm_ranks: ArmRanks;
  /**
   * The ranking features of a direct candidate (`RankingFeatures` of ranking.ts, snake_case: in_window), each in
   * 0..1; null for a memory found only by context or expansion.
   */
  features: Record<string, number> | null;
  boosts: Record<keyof Boosts, number> | null;
}

/** A candidate the arms found that is not among the results, and why. */
export interface LeftOut {
  id: string;
  /** The first 200 characters of its content. */
  content: string;
  relevance_score: number;
  boosted_score: number;
  arm_ranks: ArmRanks;
  /** below_floor: its relevance is under the floor; past_limit: it ranked after the last returned place. */
  reason: 'below_floor' | 'past_limit';
}

export interface RecallExplanation {
  /** The arms that ran (intent and query decide), in the order they ran. */
  arms: ArmName[];
  /** Candidates each arm returns: a memory no arm placed within this many is not a candidate. */
  arm_depth: number;
  relevance_floor: number;
  recency_weight: number;
  /** Distinct candidates the arms proposed (before filters and the floor). */
  candidates: number;
  /**
   * Words of the query that match no memory, and the synonyms (or broader, narrower, later senses' or alike used
   * words, or for a misspelt word the one it was likely meant as) searched in their place (unmatched.ts).
   */
  synonyms: Record<string, string[]>;
  /** The best left-out candidates of each reason, at most LEFT_OUT_PER_REASON of each. */
  left_out: LeftOut[];
}

export const LEFT_OUT_PER_REASON = 20;
const SNIPPET_CHARS = 200;

export const snippet = (content: string): string =>
  content.length > SNIPPET_CHARS ? `${content.slice(0, SNIPPET_CHARS)}…` : content;

/** The arms' places of a memory, read from the ranked lists the arms returned. */
export function armRanksOf(results: readonly ArmResult[]): (id: string) => ArmRanks {
  const places = results.map(({ arm, ids }) => ({ arm, rank: new Map(ids.map((id, index) => [id, index + 1])) }));
  return (id) => {
    const ranks: ArmRanks = {};
    for (const { arm, rank } of places) {
      const place = rank.get(id);
      // An arm may run twice (the dense search feeds two lists); the better place stands.
      if (place !== undefined) ranks[arm] = Math.min(place, ranks[arm] ?? Infinity);
    }
    return ranks;
  };
}

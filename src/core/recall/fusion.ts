import type { MatchSignal } from './types.js';

/** The reference's reciprocal rank fusion constant (NOTES.md, "Values from the reference service"): each arm adds weight / (k + rank). */
export const RRF_K = 60;

export type ArmName = 'vector' | 'keyword' | 'entity' | 'fact' | 'temporal' | 'graph';

/**
 * One arm's answer: recallable memory ids, best first, and the arm's own scores where it has them (cosine
 * similarity for the vector and fact arms, the engine's BM25 / ts_rank for the keyword arm).
 */
export interface ArmResult {
  arm: ArmName;
  ids: string[];
  scores?: ReadonlyMap<string, number>;
}

export interface FusedCandidate {
  id: string;
  /** Sum over arms of weight / (RRF_K + rank), rank from 1. */
  fused: number;
  /** Each arm's share of `fused`. */
  shares: Map<ArmName, number>;
  signals: Set<MatchSignal>;
  /** Each arm's own score for this memory, where the arm reported one. */
  armScores: Map<ArmName, number>;
}

export type ArmWeights = Readonly<Record<ArmName, number>>;

/** Weighted reciprocal rank fusion; `into` accumulates across phases (the graph arm runs after the others). */
export function fuse(
  results: readonly ArmResult[],
  weights: ArmWeights,
  into = new Map<string, FusedCandidate>(),
): Map<string, FusedCandidate> {
  for (const { arm, ids, scores } of results) {
    const weight = weights[arm];
    ids.forEach((id, index) => {
      let candidate = into.get(id);
      if (!candidate) {
        candidate = { id, fused: 0, shares: new Map(), signals: new Set(), armScores: new Map() };
        into.set(id, candidate);
      }
      const share = weight / (RRF_K + index + 1);
      candidate.fused += share;
      candidate.shares.set(arm, (candidate.shares.get(arm) ?? 0) + share);
      candidate.signals.add(arm);
      const score = scores?.get(id);
      if (score !== undefined) candidate.armScores.set(arm, score);
    });
  }
  return into;
}

/** Rank from 1 of the `depth` best of `scores`, best first; equal scores by id, so that the order is total. */
export function rankByScore(scores: ReadonlyMap<string, number>, depth: number): Map<string, number> {
  const ordered = [...scores.entries()].sort(([a, x], [b, y]) => y - x || (a < b ? -1 : a > b ? 1 : 0));
  return new Map(ordered.slice(0, depth).map(([id], index) => [id, index + 1]));
}

/**
 * A candidate's fused sum with `arm`'s share taken from `ranks` (rank from 1; absent: no share) instead of from the
 * arm's own answer.
 */
export function fusedWith(
  candidate: FusedCandidate,
  weights: ArmWeights,
  arm: ArmName,
  ranks: ReadonlyMap<string, number>,
): number {
  const rank = ranks.get(candidate.id);
  return candidate.fused - (candidate.shares.get(arm) ?? 0) + (rank === undefined ? 0 : weights[arm] / (RRF_K + rank));
}

/** Interleaves ranked lists by reciprocal rank (equal weights), for an arm that asks more than one question. */
export function interleave(lists: ReadonlyArray<readonly string[]>): string[] {
  const scores = new Map<string, number>();
  for (const list of lists)
    list.forEach((id, index) => {
      scores.set(id, (scores.get(id) ?? 0) + 1 / (RRF_K + index + 1));
    });
  return [...scores.entries()].sort((a, b) => b[1] - a[1]).map(([id]) => id);
}

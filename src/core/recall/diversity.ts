import { STOPWORDS } from '../text/stopwords.js';
import { SPEAKER_LABEL } from './conversation.js';
import { stem, tokens } from './evidence.js';

/**
 * The diversity step (issue 20): a question whose answer is spread over several memories ("What activities does
 * Melanie partake in?") needs each of them in the first places, but the best-scored candidates often say the same
 * thing twice, or are one turn and the turns around it. Maximal marginal relevance (Carbonell & Goldstein 1998)
 * picks the places one at a time: each next one is the candidate with the best score discounted by how much it
 * repeats the ones already placed. It only reorders: scores stay as ranked.
 */

/** How two candidates repeat each other, 0..1. */
export type DiversityMeasure = 'words' | 'turns' | 'query';

export interface DiversitySettings {
  /** Weight of redundancy against score (0: off): a candidate scores score x (1 - penalty x redundancy). */
  penalty: number;
  measure: DiversityMeasure;
  /** How many of the best candidates compete for the places. */
  pool: number;
}

/** What the diversity step reads of a ranked candidate. */
export interface Diversifiable {
  boosted: number;
  memory: { content: string; context_id: string; seq: number };
}

/** Content-word stems of a text (stopwords and a turn's opening speaker label dropped), as a set. */
export function contentStems(text: string): Set<string> {
  const stems = new Set<string>();
  for (const word of tokens(text.replace(SPEAKER_LABEL, ''))) if (!STOPWORDS.has(word)) stems.add(stem(word));
  return stems;
}

/** Share of the smaller set's members the two sets have in common (overlap coefficient), 0..1. */
export function overlap(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  if (small.size === 0) return 0;
  let shared = 0;
  for (const x of small) if (large.has(x)) shared++;
  return shared / small.size;
}

/** Turns written within this many places of each other in one context are one passage of a conversation. */
export const SAME_PASSAGE = 2;

/**
 * Redundancy of a candidate given those already placed, by measure:
 *   - words: the largest share of content words (the query's left out: every candidate shares them) it has in
 *     common with one placed candidate;
 *   - turns: 1 when it was written within `SAME_PASSAGE` places of a placed one in the same context (one passage of
 *     a conversation), else 0;
 *   - query: the share of the query words it holds that the placed ones hold already (evidence coverage: a candidate
 *     bringing a query word none above it has is not redundant).
 * Returned as a function of (candidate index, placed indices), with each text read once.
 */
export function redundancyOf(
  candidates: readonly Diversifiable[],
  measure: DiversityMeasure,
  queryStems: ReadonlySet<string>,
): (candidate: number, placed: number) => number {
  if (measure === 'turns')
    return (c, p) => {
      const a = candidates[c]!.memory;
      const b = candidates[p]!.memory;
      return a.context_id === b.context_id && Math.abs(a.seq - b.seq) <= SAME_PASSAGE ? 1 : 0;
    };
  const stems = candidates.map((c) => contentStems(c.memory.content));
  if (measure === 'words') {
    const own = stems.map((s) => new Set([...s].filter((x) => !queryStems.has(x))));
    return (c, p) => overlap(own[c]!, own[p]!);
  }
  // query: pairwise, the share of the candidate's query words the placed one holds; the greedy loop keeps the
  // maximum, an approximation of "held by all placed together" that needs no set per step.
  const held = stems.map((s) => new Set([...s].filter((x) => queryStems.has(x))));
  return (c, p) => {
    const mine = held[c]!;
    if (mine.size === 0) return 0;
    let shared = 0;
    for (const x of mine) if (held[p]!.has(x)) shared++;
    return shared / mine.size;
  };
}

/**
 * The first `places` of `ranked` (best first) chosen greedily by score x (1 - penalty x redundancy with the places
 * already taken), taken from the first `pool` candidates; the rest follow in their order. With penalty 0 the order
 * is unchanged.
 */
export function diversify<T extends Diversifiable>(
  ranked: readonly T[],
  { places, pool, penalty, redundancy }: {
    places: number;
    pool: number;
    penalty: number;
    redundancy: (candidate: number, placed: number) => number;
  },
): T[] {
  const size = Math.min(pool, ranked.length);
  if (penalty <= 0 || size < 2) return [...ranked];
  const worst = new Float64Array(size); // largest redundancy with a placed one, per candidate
  const taken = new Uint8Array(size);
  const order: number[] = [];
  for (let step = 0; step < Math.min(places, size); step++) {
    let best = -1;
    let bestValue = -Infinity;
    for (let i = 0; i < size; i++) {
      if (taken[i]) continue;
      const value = ranked[i]!.boosted * (1 - penalty * worst[i]!);
      if (value > bestValue) [best, bestValue] = [i, value];
    }
    taken[best] = 1;
    order.push(best);
    for (let i = 0; i < size; i++) if (!taken[i]) worst[i] = Math.max(worst[i]!, redundancy(i, best));
  }
  const rest = ranked.filter((_, i) => i >= size || !taken[i]);
  return [...order.map((i) => ranked[i]!), ...rest];
}

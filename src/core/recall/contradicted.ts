import type { ContradictedPair } from '../../storage/types.js';
import type { MatchSignal } from './types.js';

/** What the rule reads and changes of a ranked result. */
export interface Placed {
  id: string;
  boosted: number;
  signals: Set<MatchSignal>;
}

/**
 * A memory that a later one contradicts gives that one its place. Contradiction detection records "The user now
 * lives in Porto." against "The user lives in Lisbon …" and leaves the pair unresolved until a client resolves it
 * (the spec's contradictions); meanwhile the earlier statement, longer and holding more of a question's words, ranked
 * first for "where does the user live?". So where both are in the answer, the later comes right before the earlier,
 * with the earlier's ranking score if its own was lower (the answer stays in order of `boosted_score`); the earlier
 * stays in the answer, marked `contradicted`, since either may be the one that is right. The caller passes the
 * answer's places only: a pair says which of two answers comes first, not that the other answers the query, so a later
 * memory beyond them is not brought in (and a memory that many later ones contradict cannot be pushed out by them).
 *
 * `pairs` are those whose earlier memory is in `ordered` (the storage reads them for the answer's places); every
 * move puts a later memory before an earlier one, so chains (A, then B, then C) settle in a pass per pair at most.
 * Returns a new list; the results' `boosted` and signals are changed in place (they are the recall's own).
 */
export function laterFirst<T extends Placed>(ordered: readonly T[], pairs: readonly ContradictedPair[]): T[] {
  const result = [...ordered];
  const byId = new Map(result.map((s) => [s.id, s]));
  for (const { earlier } of pairs) byId.get(earlier)?.signals.add('contradicted');
  for (let pass = 0; pass <= pairs.length; pass++) {
    let moved = false;
    for (const { earlier, later } of pairs) {
      const at = result.findIndex((s) => s.id === earlier);
      const from = result.findIndex((s) => s.id === later);
      if (at < 0 || from <= at) continue;
      const [newer] = result.splice(from, 1);
      newer!.boosted = Math.max(newer!.boosted, result[at]!.boosted);
      result.splice(at, 0, newer!);
      moved = true;
    }
    if (!moved) break;
  }
  return result;
}

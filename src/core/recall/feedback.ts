import { contentStems } from './diversity.js';

/**
 * Pseudo-relevance feedback (issue 20), within the candidates a recall found: the first results are taken as
 * relevant, the words they share beyond the query's (rare among the candidates) as more of what was asked, and
 * each candidate's score is raised by the share of those words it holds (Rocchio's idea, applied to the pool rather
 * than by searching again, which would cost a second round of searches). "What activities does Melanie partake in?"
 * finds a turn about a pottery class; the other turns about classes and the kids then rise.
 */
export interface FeedbackSettings {
  /** Raise per unit of feedback evidence: score x (1 + weight x share); 0 is off. */
  weight: number;
  /** How many of the first results are taken as relevant. */
  documents: number;
  /** How many of their words are added. */
  terms: number;
  /**
   * Search again with the query and those words instead of raising the candidates found: `rank` also ranks by
   * them, `retrieve` only searches with them and ranks by the query as asked.
   */
  search: false | 'rank' | 'retrieve';
}

export interface FeedbackCandidate {
  boosted: number;
  memory: { content: string };
}

/**
 * The expansion terms: content stems of the first `documents` texts not in the query, weighted by the number of
 * those texts holding them times their inverse document frequency among all `texts`, the best `terms` of them;
 * a stem held by a single first text is one text's topic, not the query's, when several texts are read.
 */
export function feedbackTerms(
  texts: readonly ReadonlySet<string>[],
  documents: number,
  terms: number,
  queryStems: ReadonlySet<string>,
): Map<string, number> {
  const first = texts.slice(0, documents);
  const held = new Map<string, number>();
  for (const stems of first) for (const s of stems) if (!queryStems.has(s)) held.set(s, (held.get(s) ?? 0) + 1);
  const minimum = first.length > 1 ? 2 : 1;
  const documentFrequency = new Map<string, number>();
  for (const stems of texts) for (const s of stems) if (held.has(s)) documentFrequency.set(s, (documentFrequency.get(s) ?? 0) + 1);
  const weighted = [...held]
    .filter(([, count]) => count >= minimum)
    .map(([s, count]) => [s, count * Math.log(1 + texts.length / documentFrequency.get(s)!)] as const)
    .filter(([, weight]) => weight > 0)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, terms);
  return new Map(weighted);
}

/**
 * Copies of the candidates with their score raised by the weighted share of the feedback terms each holds, best
 * first (ties keep their order). With weight 0, or no terms, the list is unchanged.
 */
export function withFeedback<T extends FeedbackCandidate>(
  ranked: readonly T[],
  settings: FeedbackSettings,
  queryStems: ReadonlySet<string>,
): T[] {
  if (settings.weight <= 0 || ranked.length < 2) return [...ranked];
  const stems = ranked.map((c) => contentStems(c.memory.content));
  const terms = feedbackTerms(stems, settings.documents, settings.terms, queryStems);
  const total = [...terms.values()].reduce((sum, w) => sum + w, 0);
  if (total === 0) return [...ranked];
  const raised = ranked.map((candidate, i) => {
    let share = 0;
    for (const [s, w] of terms) if (stems[i]!.has(s)) share += w / total;
    return { candidate: { ...candidate, boosted: candidate.boosted * (1 + settings.weight * share) }, i };
  });
  raised.sort((a, b) => b.candidate.boosted - a.candidate.boosted || a.i - b.i);
  return raised.map((r) => r.candidate);
}

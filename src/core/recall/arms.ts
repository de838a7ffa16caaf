import {
  FACT_SCOPE,
  type KeywordHit,
  type KeywordTerm,
  type MemoryCandidate,
  type MemoryFilter,
  type ScoredId,
  type Storage,
} from '../../storage/types.js';
import { interleave, type ArmResult } from './fusion.js';
import {
  holdsEveryWord,
  inverseDocumentFrequency,
  keywordScoresOf,
  scoredTerms,
  type KeywordEvidence,
} from './keyword-score.js';
import { type ProcessedQuery, queryWords, synonymForms } from './query.js';
import type { MatchCountCache } from './match-counts.js';
import { MAX_NAMED_SPAN_MS } from '../text/named-days.js';

export interface ArmInput {
  storage: Storage;
  workspaceId: string;
  query: ProcessedQuery;
  vector: Float32Array;
  /** The request's filters (status, types, tags, …); every arm applies them in the database. */
  filter: MemoryFilter;
  /** How many candidates each arm returns. */
  depth: number;
  matchCounts: MatchCountCache;
  /** Scored keyword searches read this many times `depth` (RecallTuning.keywordOverfetch). */
  keywordOverfetch: number;
  /**
   * Keyword searches of this recall by what they ask: the entity arm often asks what the keyword arm asks ("Dave"
   * AND "lunch"), and the keyword index is the costliest part of a recall.
   */
  keywordSearches: Map<string, Promise<KeywordHit[]>>;
  /** The query's keyword terms and their weights here: every keyword candidate is scored with them. */
  keywordEvidence: Promise<KeywordEvidence>;
  /** What the arms read on the way: candidates' ranking columns and their similarity to the query. */
  seen: SeenMemories;
  /**
   * What the query asks about the entities it names, embedded (topical.ts), and how many of an entity's newest
   * memories the entity arm orders by it; null when the query names none.
   */
  topical: { vector: Float32Array; scan: number } | null;
}

/**
 * The query's terms and how rare each is in the workspace (counted as the keyword arm counts them, up to its cap),
 * a word that matches nothing and is searched through stand-ins (`query.synonyms`) weighed at `standInWeight` of
 * that. Rejections are left to whoever awaits it.
 */
export async function keywordEvidence(
  matchCounts: MatchCountCache,
  workspaceId: string,
  query: ProcessedQuery,
  standInWeight: number,
): Promise<KeywordEvidence> {
  const terms = scoredTerms(query);
  if (terms.length === 0) return { terms, idf: [], matches: [] };
  const [documents, matches] = await Promise.all([
    matchCounts.documentCount(workspaceId),
    matchCounts.matchCounts(
      workspaceId,
      terms.map((t) => [t.asked]),
      MAX_SCORED_MATCHES,
    ),
  ]);
  // The query's words come first among the scored terms, in order, then its phrases (scoredTerms).
  const weight = (i: number) => (i < query.terms.length && query.synonyms.has(query.terms[i]!) ? standInWeight : 1);
  return { terms, idf: matches.map((m, i) => weight(i) * inverseDocumentFrequency(m, documents)), matches };
}

/**
 * Rows and similarities the searches returned, so that ranking reads them only for candidates no search read.
 * The dense search's similarity stands where both measured one (the same value within the index's precision),
 * so the result does not depend on which arm finished first.
 */
export interface SeenMemories {
  rows: Map<string, MemoryCandidate>;
  similarity: Map<string, number>;
}

export const seenMemories = (): SeenMemories => ({ rows: new Map(), similarity: new Map() });

const originals = (filter: MemoryFilter): MemoryFilter => ({ ...filter, excludeSourceScopes: [FACT_SCOPE] });
const scoreMap = (hits: readonly ScoredId[]): Map<string, number> => new Map(hits.map((h) => [h.id, h.score]));

/**
 * What the dense search asks the index for and keeps, per unit of depth. An HNSW search for k candidates explores
 * about max(k, ef) nodes: asking for twice what is kept finds more of the exact nearest (BENCHMARKS.md).
 */
export const DENSE_ASKED_PER_DEPTH = 4;
export const DENSE_KEPT_PER_DEPTH = 2;

/**
 * Dense retrieval, one index search for two arms: the nearest originals (the vector arm) and the nearest atomic
 * facts answered as their parents (the fact-restricted arm). One search keeps the index on its fast, unfiltered
 * path; it fetches twice the depth because facts and originals share it. Facts name their parent, so no row is
 * read here: `readProposed` reads those of what the two arms propose.
 */
export async function denseArms({
  storage,
  workspaceId,
  vector,
  filter,
  depth,
  seen,
}: ArmInput): Promise<{ vector: ArmResult; fact: ArmResult }> {
  const met = await storage.memories.vectorSearch(workspaceId, vector, { k: DENSE_ASKED_PER_DEPTH * depth, filter });
  // Every memory the search met, kept or not: other arms' candidates among them need no vector read.
  for (const hit of met) seen.similarity.set(hit.id, hit.score);
  const originalHits: ScoredId[] = [];
  const parents: string[] = [];
  const parentSimilarity = new Map<string, number>();
  for (const hit of met.slice(0, DENSE_KEPT_PER_DEPTH * depth)) {
    if (hit.factOf === null) {
      if (originalHits.length < depth) originalHits.push(hit);
    } else if (!parentSimilarity.has(hit.factOf)) {
      // Best first: a parent's first fact is its most similar one.
      parents.push(hit.factOf);
      parentSimilarity.set(hit.factOf, hit.score);
    }
  }
  return {
    vector: { arm: 'vector', ids: originalHits.map((h) => h.id), scores: scoreMap(originalHits) },
    fact: { arm: 'fact', ids: parents.slice(0, depth), scores: parentSimilarity },
  };
}

/**
 * Reads the rows of the memories the dense arms propose, in one statement, into `seen`, with their exact
 * similarity: SQLite's index holds its vectors at half precision, and a similarity off in the fourth decimal
 * ordered near ties differently than on PostgreSQL (issue 22).
 */
export async function readProposed(
  { storage, workspaceId, filter, vector, seen }: ArmInput,
  dense: readonly ArmResult[],
): Promise<void> {
  const proposed = [...new Set(dense.flatMap((arm) => arm.ids))];
  // The filter again: the search applied it to the facts, not to their parents.
  const found = await storage.memories.candidates(workspaceId, proposed, {
    filter: originals(filter),
    similarTo: vector,
  });
  for (const { memory, similarity } of found) {
    seen.rows.set(memory.id, memory);
    if (similarity !== null) seen.similarity.set(memory.id, similarity);
  }
}

/**
 * BM25 scores every keyword-index entry a query matches, so one term matching thousands of memories ("project" in
 * a project tracker) makes a search slow while adding little: its inverse document frequency is low. A search
 * scores at most about this many entries per term.
 */
export const MAX_SCORED_MATCHES = 1_000;

/** Common words are counted up to here to order them by how common they are (counts are cached for a minute). */
const COMMON_COUNT_CAP = 20 * MAX_SCORED_MATCHES;

/**
 * Keyword search that finds the memories holding the most query words first, at bounded cost. Two searches run at
 * once: the memories holding every one of `words` (the query's), newest first and unscored, which is cheap however
 * common each word is, since every word must match; and the best-scored matches of `terms` (rarestTermsSearch).
 * The first come first. Without that first search, a query whose words are each common ("Anouk Holm necklace
 * Montreal" at a million memories: each name in a hundred memories, each object and city in thousands) was answered
 * from its rarest term alone, and the one memory holding all four words was among a hundred that hold the name.
 */
export async function boundedKeywordSearch(
  input: ArmInput,
  terms: readonly string[],
  required: readonly KeywordTerm[],
  words: readonly KeywordTerm[],
  filter: MemoryFilter,
): Promise<KeywordHit[]> {
  const search = keywordSearcher(input, filter);
  const everyWord = words.length >= 2 ? search([], words, 'newest') : Promise.resolve([]);
  const [holdingAll, best] = await Promise.all([
    everyWord,
    rarestTermsSearch(input, search, terms, required, everyWord),
  ]);
  const ids = new Set(holdingAll.map((hit) => hit.id));
  return [...holdingAll, ...best.filter((hit) => !ids.has(hit.id))];
}

type KeywordSearcher = (
  any: readonly string[],
  all: readonly KeywordTerm[],
  order: 'relevance' | 'newest',
  weights?: readonly number[],
) => Promise<KeywordHit[]>;

/** Keyword searches of one recall, each asked once; their hits' rows and similarities go into `seen`. */
function keywordSearcher(
  { storage, workspaceId, vector, depth, keywordOverfetch, keywordSearches, seen }: ArmInput,
  filter: MemoryFilter,
): KeywordSearcher {
  const lower = (term: KeywordTerm): KeywordTerm =>
    typeof term === 'string' ? term.toLowerCase() : term.map((t) => t.toLowerCase()).sort();
  return (any, all, order, weights) => {
    // The keyword index folds case: "Dave" and "dave" ask the same (and weighs them the same).
    const key = JSON.stringify([[...any].map((t) => t.toLowerCase()).sort(), all.map(lower).sort(), order, filter]);
    let found = keywordSearches.get(key);
    if (!found) {
      // Scored searches take more than the depth: their hits are ranked again by our own BM25 and cut to the depth,
      // so which memories make it depends less on the engine's score (FTS5's BM25, Postgres's ts_rank).
      const k = order === 'relevance' ? keywordOverfetch * depth : depth;
      found = storage.memories
        .keywordSearch(workspaceId, any, { k, filter, required: all, order, weights, similarTo: vector })
        .then((hits) => {
          for (const hit of hits) {
            // Keyword search never finds facts (storage), and its filter includes the request's.
            seen.rows.set(hit.id, hit.memory);
            if (hit.similarity !== null && !seen.similarity.has(hit.id)) seen.similarity.set(hit.id, hit.similarity);
          }
          return hits;
        });
      keywordSearches.set(key, found);
    }
    return found;
  };
}

/**
 * The best BM25 matches of any of `terms` (and every one of `required`) with bounded cost. When the required terms
 * are rare enough, they bound the work and the query runs as asked. Otherwise terms too common to score are left out
 * when rarer ones exist; when none is rarer, the rarest words that together match few enough must all appear (AND);
 * when even all of them match too much, the query is too general for keywords and the other arms answer it.
 */
async function rarestTermsSearch(
  { workspaceId, matchCounts }: ArmInput,
  search: KeywordSearcher,
  terms: readonly string[],
  required: readonly KeywordTerm[],
  holdingEveryWord: Promise<readonly KeywordHit[]>,
): Promise<KeywordHit[]> {
  if (terms.length + required.length === 0) return [];
  const cap = MAX_SCORED_MATCHES;
  const [counts, documents] = await Promise.all([
    matchCounts.matchCounts(workspaceId, [...terms.map((t) => [t]), required], cap),
    matchCounts.documentCount(workspaceId),
  ]);
  // How rare each term is, for an engine whose score does not measure it (Postgres's ts_rank).
  const weights = (asked: readonly string[]) =>
    asked.map((t) => inverseDocumentFrequency(counts[terms.indexOf(t)]!, documents));
  if (required.length > 0 && counts.at(-1)! <= cap) return search(terms, required, 'relevance', weights(terms));
  const present = terms.filter((_, i) => counts[i]! > 0);
  const rare = present.filter((t) => counts[terms.indexOf(t)]! <= cap);
  if (rare.length > 0) return search(rare, required, 'relevance', weights(rare));
  // Words together, without the query's phrases: a phrase's words are among them, and adjacency as a condition
  // would drop "the Titan project, which Ana owns" for "owns project Titan" (and doubles the cost).
  const words = present.filter((t) => !t.includes(' '));
  if (required.length + words.length === 0) return [];
  // Memories holding every word come first (boundedKeywordSearch); those holding the rarest few would follow them.
  // Where some do, that search is left out: it costs two trips for counts and a scored search of common words (at a
  // million memories, for a city named beside a person, about half the reader threads' scored-search time of an
  // all-words recall: src/core/recall/README.md), for memories holding fewer of the query's words than those found.
  if ((await holdingEveryWord).length > 0) return [];
  // The rarest words that together match few enough. BM25 reads every entry of each term it scores, so a word
  // in a third of the workspace ("project" in a project tracker) made the search 3× slower while adding next to
  // nothing to the ranking (its inverse document frequency is near 0). Each word alone, and the required terms
  // alone, are known to match too many: the smallest set worth counting has two terms.
  const smallest = required.length > 0 ? 1 : 2;
  if (words.length < smallest) return [];
  // Which words are rarest matters only where there is a choice; counting common words that far cost a semantic
  // question's first recall at a million memories a trip and a few ms of a reader thread.
  const byRarity = words.length > smallest ? await rarestFirst(matchCounts, workspaceId, words) : words;
  // Every candidate set is counted in one go (each count stops at the cap): one trip to the database, not one each.
  const sets: KeywordTerm[][] = [];
  for (let n = smallest; n <= byRarity.length; n++) sets.push([...required, ...byRarity.slice(0, n)]);
  const setCounts = await matchCounts.matchCounts(workspaceId, sets, cap);
  const at = setCounts.findIndex((count) => count <= cap);
  // None holds them all (and so none a larger set): nothing to search.
  return at >= 0 && setCounts[at]! > 0 ? search([], sets[at]!, 'relevance') : [];
}

/** `words` from the rarest, counted up to COMMON_COUNT_CAP. */
async function rarestFirst(matchCounts: MatchCountCache, workspaceId: string, words: readonly string[]) {
  const counts = await matchCounts.matchCounts(
    workspaceId,
    words.map((w) => [w]),
    COMMON_COUNT_CAP,
  );
  return words
    .map((word, i) => ({ word, count: counts[i]! }))
    .sort((a, b) => a.count - b.count)
    .map(({ word }) => word);
}

/**
 * The query's content words that some memory of the workspace holds, each with its other verb forms as alternatives
 * ("buy" or "bought"): what a memory holding every word of the query holds. A word that matches nothing, with no
 * synonym that does (`absent`), is left out: asked for, it made the search for every word find nothing, and the
 * memory holding all the others was left to the rarest-words search, which reads the best-scored few of those
 * holding the rarest two, scored on those two alone. "Who fixed a dusty spade in the studio?", where no memory says
 * "spade", did not find "… repaired a dusty shovel in the studio …" among 100,000 memories of the scale corpus.
 */
function wordsOf(query: ProcessedQuery): KeywordTerm[] {
  return query.terms
    .filter((term) => !query.absent.has(term))
    .map((term) => {
      const forms = query.termForms.get(term);
      return forms ? [term, ...forms] : term;
    });
}

/** Keyword hits in the order of this recall's keyword evidence (BM25 over their own words), best first. */
async function byKeywordEvidence(input: ArmInput, hits: readonly KeywordHit[]): Promise<KeywordHit[]> {
  const scores = keywordScoresOf(
    await input.keywordEvidence,
    hits.map((hit) => hit.memory.content),
  );
  return hits
    .map((hit, i) => ({ ...hit, score: scores[i]! }))
    .sort((a, b) => b.score - a.score)
    .slice(0, input.depth);
}

/**
 * Lexical retrieval: the query's content words, any of which may match (the memories holding all of them first),
 * ranked by BM25 over each memory's own words (keyword-score.ts), on both backends alike.
 */
export async function keywordArm(input: ArmInput): Promise<ArmResult> {
  const { query, filter } = input;
  // Other forms of irregular verbs ("drew" for "drawing"), and adjacent word pairs as phrases: "support group"
  // outranks a memory with "support" and "group" apart.
  const terms = [...query.terms, ...[...query.termForms.values()].flat(), ...phrasesWithinNames(query)];
  // Keyword search never finds facts (storage): the request's filter is all it needs.
  const hits = await byKeywordEvidence(input, await boundedKeywordSearch(input, terms, [], wordsOf(query), filter));
  return { arm: 'keyword', ids: hits.map((h) => h.id), scores: scoreMap(hits) };
}

/**
 * The query's phrases but those that cross a name's edge: "yamada store" in "When did Teodor Yamada store the sofa?"
 * pairs a name's last word with the verb after it, an accident of word order rather than a compound, and both its
 * words are searched anyway. Searching it costs the engine a read of where each of its words occurs, and at a
 * million memories a last name and a verb are each in tens of thousands (src/core/recall/README.md). Keyword
 * evidence still weighs every phrase.
 */
function phrasesWithinNames(query: ProcessedQuery): string[] {
  if (query.entities.length === 0) return query.phrases;
  // Split as the phrases were (query.ts), so that a name's words are the phrases' words.
  const names = query.entities.map((entity) => new Set(queryWords(entity)));
  const nameOf = (word: string) => names.findIndex((name) => name.has(word));
  return query.phrases.filter((phrase) => {
    const [first, second] = phrase.split(' ') as [string, string];
    return nameOf(first) === nameOf(second);
  });
}

/**
 * Words of the query that are not part of the entity (what is asked about it), with the synonyms searched for those
 * that match no memory: beside a name matched by hundreds of memories, "couch" matching nothing left the name alone
 * to choose among them (issue 24). A synonym goes with its other verb forms ("buy", "bought"); the query's own words
 * do not: searched here too, their verb forms cost a LoCoMo question (src/core/recall/README.md, "Words that match
 * nothing"), and a synonym is searched only for a word that found nothing.
 */
function otherTerms(query: ProcessedQuery, entity: string): string[] {
  // Read as the terms were: "Ekström" is the term "ekstrom", and no other word of the query.
  const own = new Set(queryWords(entity));
  return query.terms
    .filter((t) => !own.has(t))
    .flatMap((t) => [t, ...(query.synonyms.get(t) ?? []).flatMap(synonymForms)]);
}

const MAX_ENTITIES = 3;

/**
 * Entity-anchored candidates: memories that name the entity and share other query words, ranked by BM25, and, unless
 * one of them holds every word of the query, those of its memories nearest to what the query asks about it
 * (`nearestAbout`), interleaved. One list per named entity (at most three), interleaved.
 */
export async function entityArm(input: ArmInput): Promise<ArmResult> {
  const { query, filter, depth } = input;
  const holdsEvery = holdsEveryWord(query);
  const lists = await Promise.all(
    query.entities.slice(0, MAX_ENTITIES).map(async (entity) => {
      const others = otherTerms(query, entity);
      // Every word of the query, the entity's as words: the same search as the keyword arm's (asked once), where the
      // entity as a phrase had cost a second one (at a million memories 1.1-1.6 ms a recall for a full name).
      const found = await boundedKeywordSearch(input, others, [entity], wordsOf(query), filter);
      const byWords = await byKeywordEvidence(input, found);
      // A memory holding every word of the query needs no help from meaning (the `complete` feature ranks it), and
      // skipping the scan then saves its cost where a name is common (each city of the scale corpus is in 820–880
      // of its first 100,000 memories).
      const byTopic =
        input.topical && !found.some((hit) => holdsEvery(hit.memory.content))
          ? await nearestAbout(input, input.topical, entity)
          : [];
      return interleave([byWords.map((h) => h.id), byTopic]);
    }),
  );
  return { arm: 'entity', ids: interleave(lists).slice(0, depth) };
}

/**
 * The entity's memories nearest to what the query asks about it, among its newest `topical.scan`: when a name is in
 * hundreds of memories, BM25 over the query's words favours the shortest of them (the name is all they match), and
 * the one about what was asked, in other words ("pendant" for "necklace"), was not a candidate at all (issue 24).
 */
async function nearestAbout(
  { storage, workspaceId, filter, depth, seen }: ArmInput,
  topical: NonNullable<ArmInput['topical']>,
  entity: string,
): Promise<string[]> {
  const hits = await storage.memories.nearestHolding(workspaceId, [entity], topical.vector, {
    scan: topical.scan,
    k: depth,
    filter,
  });
  // Their rows serve ranking; their similarity is to the topical query, not the query, so it is not kept in `seen`.
  for (const hit of hits) seen.rows.set(hit.id, hit.memory);
  return hits.map((hit) => hit.id);
}

/**
 * Temporal candidates: memories whose event time falls in a window the query names, by meaning and by words.
 * A soft arm rather than a hard filter: a memory whose event time is unknown can still be found by the others.
 */
export async function temporalArm(input: ArmInput): Promise<ArmResult> {
  const { storage, workspaceId, query, vector, filter, depth, seen } = input;
  const window = query.windows[0]!;
  const during = { start: window.start, end: window.end };
  const inWindow: MemoryFilter = { ...originals(filter), during };
  const [byMeaning, byWords, naming] = await Promise.all([
    // Soft arm: the window's memories among the nearest, not an exact scan of the whole window.
    storage.memories.vectorSearch(workspaceId, vector, { k: depth, filter: inWindow, bestEffort: true }),
    boundedKeywordSearch(input, query.terms, [], wordsOf(query), inWindow).then((hits) =>
      byKeywordEvidence(input, hits),
    ),
    storage.memories.mentioning(workspaceId, during, {
      limit: depth + 1,
      maxSpanMs: MAX_NAMED_SPAN_MS,
      filter: originals(filter),
    }),
  ]);
  for (const hit of byMeaning) if (!seen.similarity.has(hit.id)) seen.similarity.set(hit.id, hit.score);
  // Every memory naming a day of the window, when no more than the arm's depth do: a window that specific ("on the
  // 14th", "next week") is what the query asks about, and a note of it need share no word or much meaning with the
  // question ("what is planned for next week?" and "Dentist appointment moved to Wednesday at 10.").
  const named = naming.length <= depth ? naming : [];
  return {
    arm: 'temporal',
    ids: interleave([byMeaning.map((h) => h.id), byWords.map((h) => h.id), named]).slice(0, depth),
  };
}

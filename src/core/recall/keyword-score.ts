import { LRUCache } from 'lru-cache';
import { stemmer } from 'stemmer';
import type { KeywordTerm } from '../../storage/types.js';
import { cachedTextStems, inARow, POSSESSIVE, type Stemming, same, tokens } from './evidence.js';
import type { ProcessedQuery } from './query.js';

/**
 * Keyword evidence computed here rather than taken from the engine: FTS5's BM25 and Postgres's ts_rank measure
 * different things (ts_rank knows nothing of how rare a word is), and a keyword search scores only the terms it was
 * asked, so the scores of two searches (every word of the query; its rarest words) cannot be compared. One BM25 over
 * each candidate's own words, with the same statistics for every candidate of a recall, ranks them the same way on
 * both backends, whichever arm found them.
 */

/** BM25's term-frequency saturation and length normalisation, at their usual values (as FTS5's). */
const K1 = 1.2;
const B = 0.75;

/**
 * Words are compared by their Porter stems, as the SQLite keyword index compares them (FTS5's porter tokenizer;
 * Postgres's English stemmer is Porter's later version): a memory a search found by a word's stem ("researcher" for
 * "research") has that word here too. The lighter stemmer of evidence.ts, which only strips inflections, scored such
 * matches as absent. A possessive's "'s" goes first: both indexes read "Priya's" as the word "priya" (FTS5 and
 * PostgreSQL's parser split at the apostrophe; PostgreSQL drops the "s" as a stopword), and Porter's stemmer left
 * "priya'", so a memory saying "Priya's flight" scored nothing for "Priya" while the keyword search had found it by
 * that word.
 */
const WORD_STEMS = new LRUCache<string, string>({ max: 50_000 });

function porter(word: string): string {
  let stemmed = WORD_STEMS.get(word);
  if (stemmed === undefined) {
    stemmed = stemmer(word.replace(POSSESSIVE, ''));
    WORD_STEMS.set(word, stemmed);
  }
  return stemmed;
}

/** Porter stems of recently scored texts, in order. */
const textStems = cachedTextStems(porter);

/** Words compared as the keyword index compares them (`termCoverage` with it: the share the index would find held). */
export const PORTER_STEMMING: Stemming = { stem: porter, textStems };

/** A term of the query as it is scored: a word with its other forms, or a phrase of adjacent words. */
export interface ScoredTerm {
  /** As the keyword index is asked for it, to count the memories it matches. */
  asked: KeywordTerm;
  /** Stems of its words in order (one for a word); each word may be any of its forms. */
  words: ReadonlyArray<ReadonlySet<string>>;
  /**
   * A word's forms of several words, each as its stems in order ("CI" searched as "continuous integration", a
   * thesaurus phrase in place of a word matching nothing): the keyword index matches them as phrases, and so they
   * count here.
   */
  spelled?: ReadonlyArray<readonly string[]>;
}

/** The query's content words (each with its other verb forms) and its adjacent-word phrases. */
export function scoredTerms(query: ProcessedQuery): ScoredTerm[] {
  const words = query.terms.map((term): ScoredTerm => {
    const forms = [term, ...(query.termForms.get(term) ?? [])];
    const single = forms.filter((form) => !form.includes(' '));
    const spelled = forms.filter((form) => form.includes(' ')).map((form) => tokens(form).map(porter));
    return {
      asked: forms.length === 1 ? term : forms,
      words: [new Set(single.map(porter))],
      ...(spelled.length > 0 && { spelled }),
    };
  });
  const phrases = query.phrases.map(
    (phrase): ScoredTerm => ({ asked: phrase, words: phrase.split(' ').map((w) => new Set([porter(w)])) }),
  );
  return [...words, ...phrases];
}

/**
 * BM25's inverse document frequency (the form that is never negative) of a term matching `matches` of `documents`.
 * A term counted only up to a cap weighs as if it matched the cap: common words weigh little either way.
 */
export function inverseDocumentFrequency(matches: number, documents: number): number {
  const n = Math.max(documents, matches);
  return Math.log(1 + (n - matches + 0.5) / (matches + 0.5));
}

/** Where the words of `term` occur in a row in `stems`, or one of its forms of several words. */
function occurrences(stems: readonly string[], term: ScoredTerm): number {
  return inARow(stems, term.words, isAmong) + spelledOccurrences(stems, term);
}

/** Where one of the term's forms of several words occurs in `stems`. */
const spelledOccurrences = (stems: readonly string[], term: ScoredTerm): number =>
  (term.spelled ?? []).reduce((count, phrase) => count + inARow(stems, phrase, same), 0);

const isAmong = (forms: ReadonlySet<string>, stem: string): boolean => forms.has(stem);

/** Whether the text's stems hold one of the forms (no array made for it: it runs for every candidate). */
function holdsAnyOf(forms: ReadonlySet<string>, held: ReadonlySet<string>): boolean {
  for (const form of forms) if (held.has(form)) return true;
  return false;
}

/**
 * BM25 of each text for the terms, weighted by `idf` (one per term). Lengths are normalised by the mean length of
 * the texts scored together (the candidates of one recall), which both backends see alike.
 */
export function bm25Scores(terms: readonly ScoredTerm[], idf: readonly number[], texts: readonly string[]): number[] {
  if (terms.length === 0 || texts.length === 0) return texts.map(() => 0);
  const stemsOf = texts.map(textStems);
  const meanLength = Math.max(1, stemsOf.reduce((sum, stems) => sum + stems.length, 0) / stemsOf.length);
  return stemsOf.map((stems) => {
    const norm = K1 * (1 - B + (B * stems.length) / meanLength);
    let score = 0;
    terms.forEach((term, i) => {
      const tf = occurrences(stems, term);
      if (tf > 0) score += (idf[i]! * tf * (K1 + 1)) / (tf + norm);
    });
    return score;
  });
}

/** The query's scored terms and their weights in a workspace: what keyword evidence is measured with. */
export interface KeywordEvidence {
  terms: readonly ScoredTerm[];
  idf: readonly number[];
  /** How many memories each term matches (counted up to a cap). */
  matches: readonly number[];
}

/** BM25 of each text under this recall's keyword evidence. */
export const keywordScoresOf = (evidence: KeywordEvidence, texts: readonly string[]): number[] =>
  bm25Scores(evidence.terms, evidence.idf, texts);

/**
 * Whether a text holds every content word of the query (each as one of its forms), the words compared by their
 * Porter stems as the keyword index compares them ("examined" holds "examine"). False for a query of fewer than
 * two words: one word held says little.
 */
export function holdsEveryWord(query: ProcessedQuery): (text: string) => boolean {
  if (query.terms.length < 2) return () => false;
  const words = scoredTerms(query).slice(0, query.terms.length);
  return (text) => {
    const stems = textStems(text);
    const held = new Set(stems);
    return words.every((term) => holdsAnyOf(term.words[0]!, held) || spelledOccurrences(stems, term) > 0);
  };
}

/**
 * Share of the query's keyword weight (the idf of its scored terms that match a memory) carried by terms made only of
 * the words of the names it asks about (`entities`): near 1 where a rare name is most of what the query says ("When
 * did Teodor Yamada keep a couch?" among a million memories, where the name is in a hundred of them and "couch" in
 * none), low where the name is in half the workspace (a speaker of a conversation), 0 where the query names no one.
 * Terms that match nothing weigh the most and score nothing, so they are left out.
 */
export function namesShare(evidence: KeywordEvidence, entities: readonly string[]): number {
  const nameStems = new Set(entities.flatMap((entity) => tokens(entity).map(porter)));
  if (nameStems.size === 0) return 0;
  let total = 0;
  let ofNames = 0;
  evidence.terms.forEach((term, i) => {
    if ((evidence.matches[i] ?? 0) === 0) return;
    const weight = evidence.idf[i] ?? 0;
    total += weight;
    if (term.words.every((forms) => [...forms].some((form) => nameStems.has(form)))) ofNames += weight;
  });
  return total > 0 ? ofNames / total : 0;
}

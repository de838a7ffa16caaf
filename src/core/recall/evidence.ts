import { keywordText } from '../../text/keyword-text.js';
import { keepRecentResults } from '../text/recent.js';

/** A possessive's ending ("Priya's"): every index reads the word without it. */
export const POSSESSIVE = /['’]s$/u;

/**
 * A light English stemmer for comparing query words with memory words ("camping" ~ "camp", "researched" ~
 * "research"). It only strips common inflections; the keyword index itself uses the full Porter stemmer.
 */
function stemWord(word: string): string {
  let w = word.replace(POSSESSIVE, '');
  if (w.length > 4 && w.endsWith('ies')) return `${w.slice(0, -3)}y`;
  for (const suffix of ['ing', 'ed', 'es', 's', 'ly']) {
    if (w.length - suffix.length >= 3 && w.endsWith(suffix) && !(suffix === 's' && w.endsWith('ss'))) {
      w = w.slice(0, -suffix.length);
      break;
    }
  }
  // "running" -> "runn" -> "run"; "planned" -> "plann" -> "plan".
  if (w.length > 3 && w.at(-1) === w.at(-2) && !/[aeiouls]/.test(w.at(-1)!)) w = w.slice(0, -1);
  return w;
}

/** Stems of words seen lately: candidates of one recall and of the next share most of their words. */
const STEMS = new Map<string, string>();
const STEM_CACHE = 50_000;

export function stem(word: string): string {
  let stemmed = STEMS.get(word);
  if (stemmed === undefined) {
    if (STEMS.size >= STEM_CACHE) STEMS.clear();
    stemmed = stemWord(word);
    STEMS.set(word, stemmed);
  }
  return stemmed;
}

/**
 * A word: letters and digits with the combining marks written onto them (Thai's and Devanagari's vowel signs, Khmer's
 * subscript consonants), as the keyword index's tokenizers keep them; without the marks "नमस्ते" was four words here
 * and one in the index, and a pair of Thai characters with its tone mark ("ข้") matched no pair of a memory. Marks
 * may open a word (a pair's second half, "้า"), but are no word alone: an emoji's variation selector is a mark too.
 * The branch that opens with a letter comes first: 3.4 µs for a chat turn of 20 words against 3.2 without marks at
 * all, and 3.7 with optional marks tried before every word (node, 40,000 turns).
 */
const WORD =
  /[\p{L}\p{N}][\p{L}\p{M}\p{N}]*(?:['’][\p{L}\p{M}\p{N}]+)*|\p{M}+[\p{L}\p{N}][\p{L}\p{M}\p{N}]*(?:['’][\p{L}\p{M}\p{N}]+)*/gu;

/**
 * Lower-cased words of a text as the keyword index reads it (src/text/keyword-text.ts: scripts without spaces, Chinese
 * or Thai, in pairs of characters, Latin letters without diacritics), by a regular expression: the recall hot path tokenises
 * every candidate, and ICU word segmentation (`words()`) costs several times more for the same result on the texts
 * memories hold.
 */
export const tokens = (text: string): string[] => keywordText(text).toLowerCase().match(WORD) ?? [];

/** Stemmed words of a text, as a set. */
export const stemSet = (text: string): Set<string> => new Set(tokens(text).map(stem));

/**
 * `stemWord` over a text's words, remembered for recently seen texts: a recall reads every candidate's words
 * (coverage, "about", keyword scores), and the next recalls meet many of the same candidates. Bounded by characters
 * held, not entries: a memory may be long.
 */
export function cachedTextStems(stemWord: (word: string) => string): (text: string) => readonly string[] {
  return keepRecentResults((text): readonly string[] => tokens(text).map(stemWord), { maxCharacters: 1_000_000 });
}

/** How a text's words are compared with the query's: a word's stem, and a text's stems in order. */
export interface Stemming {
  stem: (word: string) => string;
  textStems: (text: string) => readonly string[];
}

/** The light stemmer above, which the ranking's coverage was tuned with. */
const LIGHT_STEMMING: Stemming = { stem, textStems: cachedTextStems(stem) };
const textStems = LIGHT_STEMMING.textStems;

const NONE: readonly number[] = [];

/**
 * Share of the query's terms (lower-cased content words) a text contains, in any of their forms, 0..1. The words of
 * a name of several words (`names`, the entities the query names) count only together: "Sunniva Merriweather works
 * as a baker in Inverness" holds no part of "Sunniva Ostrowski" (issue 22: such partial names, each of them as near
 * the cut as the next, made the two backends' tenth places differ; BENCHMARKS.md "a dated memory is about its
 * subject"). The terms are stemmed once; the returned function is applied to every candidate of a recall.
 */
export function termCoverage(
  terms: readonly string[],
  forms: ReadonlyMap<string, readonly string[]> = new Map(),
  names: readonly string[] = [],
  stemming: Stemming = LIGHT_STEMMING,
): (text: string) => number {
  const { stem, textStems } = stemming;
  // Each stem says which terms it stands for: a text is read once, with no set of its own words built.
  if (terms.length === 0) return () => 0;
  const termsOfStem = new Map<string, number[]>();
  terms.forEach((term, i) => {
    for (const s of new Set([term, ...(forms.get(term) ?? [])].map(stem)))
      termsOfStem.set(s, [...(termsOfStem.get(s) ?? []), i]);
  });
  // Forms of several words ("continuous integration" for "CI") count where the text holds their words in a row.
  const spelled = terms.flatMap((term, i) =>
    (forms.get(term) ?? []).filter((form) => form.includes(' ')).map((form) => ({ i, words: tokens(form).map(stem) })),
  );
  const wholeNames = names
    .map((name) => tokens(name).map((word) => terms.indexOf(word)))
    .filter((indexes) => indexes.length > 1)
    .map((indexes) => indexes.filter((i) => i >= 0));
  return (text) => {
    const found = new Set<number>();
    const stems = textStems(text);
    for (const s of stems) for (const i of termsOfStem.get(s) ?? NONE) found.add(i);
    for (const { i, words } of spelled) if (!found.has(i) && inARow(stems, words, same) > 0) found.add(i);
    for (const name of wholeNames) if (!name.every((i) => found.has(i))) for (const i of name) found.delete(i);
    return found.size / terms.length;
  };
}

/**
 * How often `words` occur one after the other in `stems`, each compared with its stem by `matches`: a phrase of the
 * query, or a word's form of several words ("continuous integration" for "CI").
 */
export function inARow<W>(
  stems: readonly string[],
  words: readonly W[],
  matches: (word: W, stem: string) => boolean,
): number {
  let count = 0;
  for (let at = 0; at + words.length <= stems.length; at++) {
    let all = true;
    for (let j = 0; j < words.length && all; j++) all = matches(words[j]!, stems[at + j]!);
    if (all) count++;
  }
  return count;
}

/** A word compared with a stem: the same. */
export const same = (word: string, stem: string): boolean => word === stem;

/** Cosine similarity of two unit vectors. */
export function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  for (let i = 0; i < a.length; i++) dot += a[i]! * b[i]!;
  return dot;
}

/**
 * A memory's relevance_score (0..1): the larger of its meaning match (cosine similarity, negative as 0) and its
 * word match (share of query words it contains). Either kind of evidence alone can make a memory relevant: a
 * paraphrase shares few words, an exact identifier ("XK-42") may embed far from the query.
 */
export const relevanceOf = (similarity: number, coverage: number): number =>
  Math.min(1, Math.max(0, similarity, coverage));

/** How many leading words count as the subject position of a memory ("Caroline: …", "Alice prefers …"). */
const SUBJECT_WORDS = 4;

/**
 * When or where a memory's event happened, set before its subject ("On 8 September 2019, Anouk Holm tested …", "In
 * Montreal, …"): a short phrase opening with on, in or at and closed by a comma. The subject position starts after
 * it. Without this a person's dated memories were never about them and their undated ones always were: at a million
 * memories of issue 24's corpus the one memory a paraphrased question asked about ranked below the person's short
 * "likes chess and knitting" ones (BENCHMARKS.md, "a dated memory is about its subject").
 */
const LEADING_SETTING = /^(?:on|in|at)\s[^,]{1,30},\s*/iu;

/**
 * Whether a memory is about one of the entities rather than merely naming it: the entity is its `subject_id`, or
 * opens its text, after a leading time or place ("On 8 May, Gina …"). "Gina: the store is doing great" is about Gina;
 * "Jon: Hey Gina! …" mentions her. The names are stemmed once; the returned function is applied to every candidate
 * of a recall.
 */
export function aboutAny(
  entities: readonly string[],
): (memory: { content: string; subject_id: string | null }) => boolean {
  const names = entities.map((entity) => tokens(entity).map(stem)).filter((name) => name.length > 0);
  if (names.length === 0) return () => false;
  const longest = Math.max(...names.map((name) => name.length));
  return (memory) => {
    const subject = memory.subject_id === null ? null : tokens(memory.subject_id).map(stem).join(' ');
    const opening = textStems(memory.content.replace(LEADING_SETTING, '')).slice(0, SUBJECT_WORDS + longest - 1);
    return names.some((name) => {
      if (subject === name.join(' ')) return true;
      const window = opening.slice(0, SUBJECT_WORDS + name.length - 1);
      return window.some((_, i) => name.every((w, j) => window[i + j] === w));
    });
  };
}

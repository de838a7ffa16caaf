import { inThesaurus, loadThesaurus } from './synonyms.js';
import { bothWays, otherOfPair } from './word-pairs.js';

/**
 * Words a misspelt word may have been meant as: the thesaurus's words one slip away from it ("educaton" → education,
 * "fesetival" → festival, "recieve" → receive). LoCoMo's dev questions, typed by people, hold three such words in 383
 * ("funraiser"); the keyword index holds the words as written, so a misspelt word finds nothing there.
 *
 * A slip is a letter left out, one added, one changed, or two neighbours swapped (one Damerau-Levenshtein edit).
 * Only for words of `SHORTEST` letters or more, and the first letter kept unless it is swapped with the second: a
 * short word is one slip from many others ("cat" → bat, car, cut), and a first letter is seldom the one mistyped.
 * The words are candidates only: unmatched.ts searches one in the misspelt word's place only where a memory of the
 * workspace holds it, and only for a word the workspace and the thesaurus both lack.
 */
export function spellingsNear(word: string): string[] {
  if (word.length < SHORTEST || !/^[a-z]+$/.test(word)) return [];
  const known = knownWords();
  const near = new Set<string>();
  // Words as the table holds them, not their inflections: about 450 candidates a word, each one lookup.
  const consider = (candidate: string) => {
    if (candidate !== word && known.has(candidate)) near.add(candidate);
  };
  for (let i = 0; i <= word.length; i++) {
    const before = word.slice(0, i);
    const after = word.slice(i);
    // A letter added by mistake, left out, or typed for another: none at the first place.
    if (i > 0 && i < word.length) consider(before + after.slice(1));
    if (i > 0) for (const letter of LETTERS) consider(before + letter + after);
    if (i > 0 && i < word.length) for (const letter of LETTERS) consider(before + letter + after.slice(1));
    // Two neighbours typed in the wrong order, the first two as well.
    if (i + 1 < word.length) consider(before + after[1]! + after[0]! + after.slice(2));
  }
  return [...near];
}

/**
 * Whether the word is spelt as some word the thesaurus holds: an entry (a noun or a verb, or a base form of one) or a
 * word of an entry's columns, where the adjectives and adverbs are ("likely", "recently", "grateful": no entry).
 */
export const spelledAsKnown = (word: string): boolean => knownWords().has(word) || inThesaurus(word);

let known: ReadonlySet<string> | undefined;

/**
 * The thesaurus's single words, entries and the words of their columns (95,000; about 270 ms and 12 MB, the first
 * time: `RecallService.warmUp` asks for them at start, as for the thesaurus).
 */
export function knownWords(): ReadonlySet<string> {
  if (known) return known;
  const words = new Set<string>();
  for (const [entry, columns] of loadThesaurus()) {
    if (!entry.includes(' ')) words.add(entry);
    for (const word of columns.split(/[\t ]/)) if (word) words.add(word);
  }
  known = words;
  return known;
}

/**
 * Shorter words are one slip from too many others to guess which was meant, and what looks like their ending is
 * none ("tour" is no "tor").
 */
const SHORTEST = 5;

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

/**
 * British and American spellings of one word, by their regular endings: colour / color, organise / organize,
 * analyse / analyze, centre / center, catalogue / catalog, licence / license, with their inflections (colours,
 * organised, organising, organisation). An agent's model often writes American English where its user writes
 * British, and the keyword index holds each as written. A candidate counts only where the thesaurus holds it (or its
 * base form): "floor" is no "flour" (no "o" before the ending), "prize" no "prise" (three letters before it); of
 * the 1,766 pairs these endings make among the thesaurus's own words, all but one (innocence / innocense) are
 * synonyms or listed together there.
 */
export function otherSpellings(word: string): string[] {
  const apart = otherOfPair(WORDS_SPELT_APART, word);
  if (apart.length > 0) return [...apart];
  if (word.length < SHORTEST || !/^[a-z]+$/.test(word)) return [];
  const found = new Set<string>();
  for (const [ending, other] of SPELLING_ENDINGS) {
    if (!ending.test(word)) continue;
    const candidate = word.replace(ending, other);
    if (candidate !== word && inThesaurus(candidate)) found.add(candidate);
  }
  return [...found];
}

/** Endings spelt one way in British and another in American English, both ways; `$1` keeps an inflection. */
const SPELLING_ENDINGS: ReadonlyArray<readonly [RegExp, string]> = [
  // colour / color, behaviour / behavior, not floor / flour: no "o" before the ending.
  [/(?<=[a-z]{2}[^o])our(s|ed|ing|ite|ites|able|ful|less)?$/, 'or$1'],
  [/(?<=[a-z]{2}[^o])or(s|ed|ing|ite|ites|able|ful|less)?$/, 'our$1'],
  // organise / organize, not prize / prise: three letters before the ending.
  [/(?<=[a-z]{3})is(e|es|ed|ing|ation|ations|er|ers)$/, 'iz$1'],
  [/(?<=[a-z]{3})iz(e|es|ed|ing|ation|ations|er|ers)$/, 'is$1'],
  [/ys(e|es|ed|ing)$/, 'yz$1'],
  [/yz(e|es|ed|ing)$/, 'ys$1'],
  [/(?<=[a-z]{2})tre(s)?$/, 'ter$1'],
  [/(?<=[a-z]{2})ter(s)?$/, 'tre$1'],
  [/(?<=[a-z]{3})ogue(s)?$/, 'og$1'],
  [/(?<=[a-z]{3})og(s)?$/, 'ogue$1'],
  [/(?<=[a-z]{2})ence(s)?$/, 'ense$1'],
  [/(?<=[a-z]{2})ense(s)?$/, 'ence$1'],
];

/**
 * Words spelt apart by more than an ending, both ways; only those whose American form has no other common sense
 * ("cheque" is a "check", but "check the logs" asks for no cheque).
 */
const WORDS_SPELT_APART = bothWays([
  ['grey', 'gray'],
  ['jewellery', 'jewelry'],
  ['aluminium', 'aluminum'],
  ['pyjamas', 'pajamas'],
  ['moustache', 'mustache'],
  ['sceptical', 'skeptical'],
  ['ageing', 'aging'],
  ['manoeuvre', 'maneuver'],
  ['paediatric', 'pediatric'],
  ['anaemia', 'anemia'],
  ['oestrogen', 'estrogen'],
  ['aeroplane', 'airplane'],
  ['programme', 'program'],
  ['programmes', 'programs'],
  ['mould', 'mold'],
  ['plough', 'plow'],
  ['travelled', 'traveled'],
  ['travelling', 'traveling'],
  ['cancelled', 'canceled'],
  ['cancelling', 'canceling'],
  ['labelled', 'labeled'],
  ['modelling', 'modeling'],
]);

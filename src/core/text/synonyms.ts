import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../../package-root.js';
import { otherVerbForms } from './irregular-verbs.js';

/** The table `scripts/synonyms.ts` writes, in the package (`assets/` ships with it). */
export const SYNONYMS_DIRECTORY = join(PACKAGE_ROOT, 'assets', 'synonyms');
export const SYNONYMS_FILE = join(SYNONYMS_DIRECTORY, 'synonyms.txt');

/** Inflections tried when a word is not in the table as written ("couches" → couch, "tried" → try). */
const BASE_FORMS: ReadonlyArray<readonly [suffix: string, replacement: string]> = [
  ['ies', 'y'],
  ['es', ''],
  ['s', ''],
  ['ied', 'y'],
  ['ed', ''],
  ['ed', 'e'],
  ['ing', ''],
  ['ing', 'e'],
];

/** The table's columns after the word, in their order. */
const COLUMNS = ['synonyms', 'broader', 'narrower', 'later', 'near', 'related'] as const;
type Column = (typeof COLUMNS)[number];

/**
 * Each entry's columns as the line holds them, split only when asked: the table has about 100,000 entries, and
 * holding each as arrays doubled its load time (about 150 → 290 ms) and heap (20 → 39 MiB).
 */
let table: ReadonlyMap<string, string> | undefined;

function load(): ReadonlyMap<string, string> {
  const map = new Map<string, string>();
  for (const line of readFileSync(SYNONYMS_FILE, 'utf8').split('\n')) {
    const tab = line.indexOf('\t');
    if (tab > 0) map.set(line.slice(0, tab), line.slice(tab + 1));
  }
  return map;
}

/** The table, read on first use (or at a server's start: `RecallService.warmUp`). */
export function loadThesaurus(): ReadonlyMap<string, string> {
  table ??= load();
  return table;
}

const entry = (key: string): string | undefined => loadThesaurus().get(key);

function columnOf(key: string, column: Column): readonly string[] {
  const text = entry(key)?.split('\t')[COLUMNS.indexOf(column)];
  return text ? text.split(' ') : [];
}

/** The base forms a word may have by BASE_FORMS, each of at least `shortest` letters before its replacement. */
function baseForms(word: string, shortest: number): string[] {
  return BASE_FORMS.flatMap(([suffix, replacement]) =>
    word.length >= suffix.length + shortest && word.endsWith(suffix)
      ? [word.slice(0, -suffix.length) + replacement]
      : [],
  );
}

/**
 * The forms a word is looked up in after its own: its base forms by BASE_FORMS of at least `shortest` letters, and an
 * irregular verb's others ("kept" → keep: the table holds verbs in their base form).
 */
const otherForms = (word: string, shortest = 3): string[] => [...baseForms(word, shortest), ...otherVerbForms(word)];

/**
 * A column of the table for a lower-cased word or phrase: its own list, or where that is empty, its base form's
 * ("couches" → couch, "accused" → accuse, "kept" → keep; "accused" is a word of its own, with broader words but no
 * synonyms).
 */
function lookup(word: string, column: Column): readonly string[] {
  const own = columnOf(word, column);
  if (own.length > 0) return own;
  for (const base of otherForms(word)) {
    const list = columnOf(base, column);
    if (list.length > 0) return list;
  }
  return [];
}

/**
 * Whether the table holds the lower-cased word or one of its base forms: whether any of `synonymsOf`, `broaderOf`,
 * `narrowerOf`, `laterSensesOf`, `usedAlikeAs` and `relatedTo` can give it something (every entry has a word in at
 * least one column).
 */
export const inThesaurus = (word: string): boolean =>
  entry(word) !== undefined || otherForms(word).some((base) => entry(base) !== undefined);

/**
 * Synonyms of a lower-cased noun or verb, or a phrase the table holds (`phrasesIn`), in its most frequent sense
 * (WordNet 3.1, assets/synonyms/): "couch" → sofa, lounge; "try" → seek, attempt, essay, assay; "try out" → test,
 * prove. Empty when the word (or its base form) is not in the table. The table (about 11 MB) is read on first use.
 */
export const synonymsOf = (word: string): readonly string[] => lookup(word, 'synonyms');

/**
 * A broader word that more of the table's entries have as theirs than this is too general to stand in for a word:
 * searched in place of "fly", "move" (the broader word of 402 entries) found "my dentist appointment moved" for "when
 * do I fly?", and in place of "trouble" a note that someone moved. How many entries a broader word has is a median 4
 * and a 99th percentile 76 in the table of 2026-12-05; 106 words have more than 100 (move, change, go, travel, make,
 * take, person, device, structure …). Leaving them out changed no hit of the scale corpus at a million, and LoCoMo's
 * figures only within the session mode's spread between runs (BENCHMARKS.md, 2026-12-05 evening).
 */
const MOST_ENTRIES_UNDER_BROADER = 100;

/**
 * How many entries have each broader word as theirs, counted on first use (about 60 ms over the whole table; a server
 * counts at its start, `warmThesaurus`).
 */
let entriesUnder: ReadonlyMap<string, number> | undefined;

function countEntriesUnder(): ReadonlyMap<string, number> {
  const counts = new Map<string, number>();
  for (const columns of loadThesaurus().values()) {
    // The broader column is the second: between the first tab and the next.
    const start = columns.indexOf('\t') + 1;
    const end = columns.indexOf('\t', start);
    if (start === 0 || end < start) continue;
    for (let from = start; from < end; ) {
      const space = columns.indexOf(' ', from);
      const to = space === -1 || space > end ? end : space;
      const word = columns.slice(from, to);
      counts.set(word, (counts.get(word) ?? 0) + 1);
      from = to + 1;
    }
  }
  return counts;
}

/** Whether a broader word is too general to stand in for another (MOST_ENTRIES_UNDER_BROADER). */
export function tooGeneral(word: string): boolean {
  return (warmThesaurus().get(word) ?? 0) > MOST_ENTRIES_UNDER_BROADER;
}

/**
 * The table read and its broader words counted (their counts returned), so that no recall waits for either
 * (`RecallService.warmUp`).
 */
export function warmThesaurus(): ReadonlyMap<string, number> {
  entriesUnder ??= countEntriesUnder();
  return entriesUnder;
}

/**
 * Broader words for a lower-cased noun or verb: what its most frequent sense is a kind of (WordNet's hypernyms), none
 * `tooGeneral`: "kayak" → canoe, boat; "urn" → vase; "fly" → dipteran, dipteron (not travel, go, move, locomote). Empty
 * when the table holds none.
 */
export const broaderOf = (word: string): readonly string[] =>
  lookup(word, 'broader').filter((broader) => !tooGeneral(broader));

/**
 * Narrower words for a lower-cased noun or verb: kinds of its most frequent sense (WordNet's hyponyms), the most
 * common first, at most 24: "coat" → jacket, greatcoat, overcoat; "request" → demand, application … order. Empty when
 * the table holds none.
 */
export const narrowerOf = (word: string): readonly string[] => lookup(word, 'narrower');

/**
 * Words of the later senses of a lower-cased noun or verb (their synonyms, broader and narrower words, the most
 * frequent sense first, at most 48, none of the other lists'): "wash" → … clean; "wellington" → hessian, jackboot,
 * boot. A word's rarer meanings are among them, so the caller must check that they fit (unmatched.ts). Empty when the
 * table holds none.
 */
export const laterSensesOf = (word: string): readonly string[] => lookup(word, 'later');

/**
 * Words used most like a lower-cased noun or verb, by their GloVe vectors, the nearest first, at most 12, none of the
 * other lists': "pendant" → necklace, earrings, brooch …; "timepiece" → wristwatch … (WordNet relates neither). As
 * often a thing of a kind beside it as the same thing ("pendant" → bracelet) or merely its company ("oven" → bake), so
 * the caller must check that they fit (unmatched.ts). Empty when the table holds none.
 */
export const usedAlikeAs = (word: string): readonly string[] => lookup(word, 'near');

/**
 * Words a thesaurus of associations lists as related to a lower-cased noun or verb (Moby Thesaurus II, either way
 * round), the nearest by their GloVe vectors first, at most 12, none of the other lists': "torch" → candle, lantern,
 * moon …; "quilt" → bedspread … blanket; "spyglass" → telescope, which neither WordNet nor the words used most like it
 * relate. Its lists run wide ("cup" → bowl, crown, end …), so the caller must check that they fit (unmatched.ts).
 * Empty when the table holds none.
 */
export const relatedTo = (word: string): readonly string[] => lookup(word, 'related');

/** A run of words the table holds as one phrase: `words[start, start + length)`, as the table's key `phrase`. */
export interface PhraseAt {
  start: number;
  length: number;
  phrase: string;
}

/**
 * The forms a phrase's first word is looked up in: as written, its base forms, an irregular verb's base. Bases of two
 * letters count here ("tried" → try): a phrase's other words keep a short base from matching by chance.
 */
const firstWordForms = (word: string): string[] => [word, ...otherForms(word, 2)];

/**
 * Phrases of two or three words among lower-cased `words` that the table holds as one ("tried out" → try out, "gave
 * back" → give back, "looking glass"): a phrase means what its words do not mean one by one. The first word may be
 * inflected, the others as written; the longest phrase from each position, none overlapping, left to right.
 */
export function phrasesIn(words: readonly string[]): PhraseAt[] {
  const found: PhraseAt[] = [];
  for (let start = 0; start < words.length - 1; start++) {
    for (const length of [3, 2]) {
      if (start + length > words.length) continue;
      const rest = words.slice(start + 1, start + length).join(' ');
      const phrase = firstWordForms(words[start]!)
        .map((first) => `${first} ${rest}`)
        .find((key) => entry(key) !== undefined);
      if (phrase) {
        found.push({ start, length, phrase });
        start += length - 1;
        break;
      }
    }
  }
  return found;
}

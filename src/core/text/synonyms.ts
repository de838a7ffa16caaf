import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../../package-root.js';

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

/** A word's entry: the other words of its most frequent sense, and the words of what that sense is a kind of. */
interface Entry {
  synonyms: readonly string[];
  broader: readonly string[];
}

let table: ReadonlyMap<string, Entry> | undefined;

function load(): ReadonlyMap<string, Entry> {
  const map = new Map<string, Entry>();
  const list = (column: string | undefined) => (column ? column.split(' ') : []);
  for (const line of readFileSync(SYNONYMS_FILE, 'utf8').split('\n')) {
    const [word, synonyms, broader] = line.split('\t');
    if (word) map.set(word, { synonyms: list(synonyms), broader: list(broader) });
  }
  return map;
}

/**
 * A column of the table for a lower-cased word: its own list, or where that is empty, its base form's ("couches" →
 * couch, "accused" → accuse; "accused" is a word of its own, with broader words but no synonyms).
 */
function lookup(word: string, column: keyof Entry): readonly string[] {
  table ??= load();
  const own = table.get(word)?.[column];
  if (own && own.length > 0) return own;
  for (const [suffix, replacement] of BASE_FORMS) {
    if (word.length > suffix.length + 2 && word.endsWith(suffix)) {
      const base = table.get(word.slice(0, -suffix.length) + replacement)?.[column];
      if (base && base.length > 0) return base;
    }
  }
  return [];
}

/**
 * Synonyms of a lower-cased noun or verb in its most frequent sense (WordNet 3.1, assets/synonyms/): "couch" → sofa,
 * lounge; "try" → seek, attempt, essay, assay. Empty when the word (or its base form) is not in the table. The table
 * (about 2 MB) is read on first use.
 */
export const synonymsOf = (word: string): readonly string[] => lookup(word, 'synonyms');

/**
 * Broader words for a lower-cased noun or verb: what its most frequent sense is a kind of (WordNet's hypernyms):
 * "kayak" → canoe, boat; "urn" → vase. Empty when the table holds none.
 */
export const broaderOf = (word: string): readonly string[] => lookup(word, 'broader');

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

let table: ReadonlyMap<string, readonly string[]> | undefined;

function load(): ReadonlyMap<string, readonly string[]> {
  const map = new Map<string, readonly string[]>();
  for (const line of readFileSync(SYNONYMS_FILE, 'utf8').split('\n')) {
    const tab = line.indexOf('\t');
    if (tab > 0) map.set(line.slice(0, tab), line.slice(tab + 1).split(' '));
  }
  return map;
}

/**
 * Synonyms of a lower-cased noun or verb in its most frequent sense (WordNet 3.1, assets/synonyms/): "couch" → sofa,
 * lounge; "try" → seek, attempt, essay, assay. Empty when the word (or its base form) is not in the table. The table
 * (about 1 MB) is read on first use.
 */
export function synonymsOf(word: string): readonly string[] {
  table ??= load();
  const found = table.get(word);
  if (found) return found;
  for (const [suffix, replacement] of BASE_FORMS) {
    if (word.length > suffix.length + 2 && word.endsWith(suffix)) {
      const base = table.get(word.slice(0, -suffix.length) + replacement);
      if (base) return base;
    }
  }
  return [];
}

import { loadThesaurus } from './synonyms.js';

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
  const table = loadThesaurus();
  const near = new Set<string>();
  // Entries as the table holds them, not their inflections: about 450 candidates a word, each one lookup.
  const consider = (candidate: string) => {
    if (candidate !== word && table.has(candidate)) near.add(candidate);
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

/** Shorter words are one slip from too many others to guess which was meant. */
const SHORTEST = 5;

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

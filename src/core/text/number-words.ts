import { bothWays, otherOfPair } from './word-pairs.js';

/**
 * Numbers written in words and in digits, each the other's form: a memory says "Maya has three kids" and its user
 * asks "who has 3 kids?", or "the 2nd floor" of "the second floor". Neither the stemmer nor the thesaurus relates
 * them, so the keyword index held no word of the question's number. Two to twenty and the tens, and the ordinals
 * first to twentieth: compound numbers ("twenty-one") are two words to every index. Not "one" and 1, of which "one"
 * is as often no number ("which one", "the one who").
 */
const CARDINALS = [
  'two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen',
  'nineteen twenty',
]
  .join(' ')
  .split(' ');
const TENS = ['thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'];
const ORDINALS = [
  'first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth thirteenth fourteenth fifteenth',
  'sixteenth seventeenth eighteenth nineteenth twentieth',
]
  .join(' ')
  .split(' ');

/** An ordinal's digits with their English suffix: 1st, 2nd, 3rd, 4th … 11th, 12th, 13th … 20th. */
const ordinalDigits = (n: number): string =>
  `${n}${n % 10 === 1 && n !== 11 ? 'st' : n % 10 === 2 && n !== 12 ? 'nd' : n % 10 === 3 && n !== 13 ? 'rd' : 'th'}`;

const FORMS = bothWays([
  ...CARDINALS.map((word, i) => [word, String(i + 2)] as const),
  ...TENS.map((word, i) => [word, String(30 + 10 * i)] as const),
  ...ORDINALS.map((word, i) => [word, ordinalDigits(i + 1)] as const),
]);

/** A number's other form: "three" → 3, "3" → three, "2nd" → second; none for any other word. */
export const numberForms = (word: string): readonly string[] => otherOfPair(FORMS, word);

/**
 * The text as the keyword index reads it, on both backends and in recall's own word counts (core/recall/evidence.ts,
 * query.ts), so that what a query asks and what a memory holds are split into the same words:
 *
 * - **Scripts written without spaces** (Chinese, Japanese; Korean, whose particles are written onto the word; Thai,
 *   Lao, Khmer and Burmese, since migration 0026): a run of their characters is one "word" to SQLite's unicode61
 *   tokenizer and to PostgreSQL's parser, so "咖啡" found nothing in "我喜欢喝咖啡", nor "ข้าว" (rice) in "ฉันชอบกินข้าวผัด".
 *   A run is read as its overlapping pairs of characters, then its single characters (the CJK bigrams of search
 *   engines without a dictionary: no segmentation dictionary to keep in step between the index and the query, and
 *   none that changes with the ICU data of a Node release). Pairs come first and in order, so a phrase of a longer
 *   word's pairs ("北京 京大 大学") matches where the word is written.
 * - **Latin letters with diacritics** are read without them ("médecin" and "medecin" are one word). SQLite's tokenizer
 *   folded them already (`remove_diacritics 2`), PostgreSQL's `english` configuration did not, and recall's counts of
 *   held words did not either, so an accent a query left out cost the memory its keyword evidence.
 * - **Words joined by a dot, slash, at sign or colon** ("userService.ts", "src/app", "ana@example.com", "Node.js"),
 *   a path's opening slash ("/etc/hosts") and a sign before a digit ("2024-03-15", "ABC-123") are read apart, since
 *   migration 0027. SQLite's tokenizer split them already; PostgreSQL's parser kept each whole, as a file, host,
 *   e-mail, version or signed number, so "userService" found "src/services/userService.ts" on SQLite only.
 * - **Words written in camel case** ("getUserById", "XMLHttpRequest") are read whole and then in their parts ("get
 *   User By Id", "XML Http Request"), since migration 0027: a coding agent's note names a function as it is written
 *   and is asked about in words ("what does get user by id return?"); both engines read such a word as one.
 * - **Punctuation, symbols and spaces beyond ASCII** ("—", “”, "…", "°", a no-break space) are read as spaces and
 *   apostrophes beyond ASCII as ASCII's ("Maya’s" as Maya's), since migration 0028: PostgreSQL's parser read them as
 *   letters where the database's LC_CTYPE is C, so "everywhere—even" was one word there.
 * - **Words joined by hyphens** ("follow-up", "e-mail", "check-in", "co-worker") are read in their parts, as both
 *   engines read them, and then, after the text, as one word ("followup", "email", "checkin", "coworker"), since
 *   migration 0029: a memory or a question that writes the compound as one word shared none of its words with one
 *   that writes the hyphen. After the text, not beside the compound, so that the words around it stay side by side
 *   for phrases. A question's compound asks for that word beside its parts (core/recall/query.ts).
 *
 * Other text is returned as it is.
 */

/**
 * Characters of the scripts read in pairs: Han, Hiragana, Katakana (with the prolonged sound mark), Hangul, Thai, Lao,
 * Khmer, Myanmar. The last four write vowels and tones as combining marks, which pair as characters of their own:
 * the index and the query split alike, and a word is still the run of its pairs.
 */
const UNSPACED_CHARACTER =
  '[\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\p{Script=Hangul}\\p{Script=Thai}\\p{Script=Lao}\\p{Script=Khmer}\\p{Script=Myanmar}\\u30fc]';
const UNSPACED = new RegExp(`${UNSPACED_CHARACTER}+`, 'gu');
const HAS_UNSPACED = new RegExp(UNSPACED_CHARACTER, 'u');
/** Splits a text at the edges of its unspaced runs, keeping the runs. */
const UNSPACED_SPLIT = new RegExp(`(${UNSPACED_CHARACTER}+)`, 'u');
/** A Latin letter followed by combining marks, once decomposed. */
const MARKED_LATIN = /([A-Za-z])[\u0300-\u036f]+/g;
/** Anything but printable ASCII and line breaks: only such text can read otherwise. */
const NOT_ASCII = /[^\t\n\r\u0020-\u007e]/;
const COMBINING = /[\u0300-\u036f]/;
/** Apostrophes beyond ASCII's ("Maya’s", "O’Neil"), read as ASCII's. */
const APOSTROPHES = /[\u2018\u2019\u02bc]/g;
/**
 * Punctuation, symbols and spaces beyond ASCII (dashes, quotation marks, "…", "°", "€", a no-break space, emoji, a
 * full-width comma), read as spaces. SQLite's tokenizer separates words at them; PostgreSQL's parser reads them as
 * letters where the database's LC_CTYPE is C (`initdb --no-locale`, as the tests' and the benches' clusters run), so
 * "everywhere—even Paris" held neither "everywhere" nor "even" there, nor “quoted” "quoted", nor "Maya’s" "maya".
 */
const SEPARATORS_BEYOND_ASCII = /(?!\p{ASCII})[\p{P}\p{S}\p{Z}]/gu;

/** Text beyond ASCII with its separators read as ASCII's (above). */
const asciiSeparators = (text: string): string => text.replace(APOSTROPHES, "'").replace(SEPARATORS_BEYOND_ASCII, ' ');

/** Latin letters without their diacritics; other scripts' marks (Devanagari's vowel signs, say) are kept. */
function withoutDiacritics(text: string): string {
  const decomposed = text.normalize('NFD');
  if (!COMBINING.test(decomposed)) return text;
  return decomposed.replace(MARKED_LATIN, '$1').normalize('NFC');
}

/**
 * A run of an unspaced script as the index reads it: its pairs in order, then its characters. Built by concatenation:
 * a run of 199,000 characters took 150-230 ms as arrays of pairs joined, and a memory may be that long.
 */
function pairsThenCharacters(run: string): string {
  const characters = Array.from(run);
  if (characters.length === 1) return run;
  let pairs = '';
  for (let i = 1; i < characters.length; i++) pairs += `${characters[i - 1]}${characters[i]} `;
  return pairs + characters.join(' ');
}

/**
 * How many characters of unspaced runs a text is read in pairs for; runs past them stay as written. Pairs and
 * characters make a run five times longer and a word of each character or two: a memory of 199,000 Chinese
 * characters (the API allows 200,000) cost its write 0.99 s and the first recall that met it 906 ms, against 0.21 s
 * and 100 ms for as long a text in English. A note names what it is about early; a long document is ingested through
 * /v1/documents, whose passages are far shorter than this.
 */
export const PAIRED_CHARACTERS = 20_000;

/** `at`, or one less where `at` would split a surrogate pair. */
const cutBefore = (text: string, at: number): number => (/[\ud800-\udbff]/.test(text[at - 1] ?? '') ? at - 1 : at);

/** The text the keyword index holds for `text`. */
export function keywordText(text: string): string {
  if (NOT_ASCII.test(text)) return withCompoundsAsOne(readAsWords(asciiSeparators(withoutDiacritics(text))));
  // Recall reads every candidate's words through here: for most text three passes of ASCII classes, 0.3 µs a chat
  // turn.
  const read = JOINED_IN_ASCII.test(text) || CAMEL_IN_ASCII.test(text) ? readAsWords(text) : text;
  return HYPHENATED_IN_ASCII.test(text) ? withCompoundsAsOne(read) : read;
}

/**
 * Letters joined by hyphens into one compound ("follow-up", "state-of-the-art"), a word of its own at both ends: not a
 * number's sign ("covid-19", "ABC-123": JOINERS) nor a dash between words (" - ", "--").
 */
const HYPHENATED = /(?<![\p{L}\p{N}-])\p{L}+(?:-\p{L}+)+(?![\p{L}\p{N}-])/gu;
const HYPHENATED_IN_ASCII = /[A-Za-z]-[A-Za-z]/;
/** Fewer letters joined are no word of their own ("x-y"). */
const SHORTEST_JOINED = 4;

/** A compound written with hyphens: its parts, and the parts written as one word. */
export interface HyphenatedCompound {
  parts: string[];
  joined: string;
}

/** The hyphenated compounds of a text, each once, in order: "a follow-up e-mail" → followup, email (with their parts). */
export function hyphenatedCompounds(text: string): HyphenatedCompound[] {
  // Without a hyphen, no pass of the pattern: a memory of 192,000 Chinese characters, read in pairs, took 60 ms more.
  if (!text.includes('-')) return [];
  const found = new Map<string, HyphenatedCompound>();
  for (const [compound] of text.matchAll(HYPHENATED)) {
    const parts = compound.split('-');
    const joined = parts.join('');
    if (joined.length >= SHORTEST_JOINED && !found.has(joined)) found.set(joined, { parts, joined });
  }
  return [...found.values()];
}

/** The text, and after it its hyphenated compounds as one word each (above). */
function withCompoundsAsOne(text: string): string {
  const compounds = hyphenatedCompounds(text);
  return compounds.length > 0 ? `${text} ${compounds.map(({ joined }) => joined).join(' ')}` : text;
}

/** The unspaced runs of a text in pairs (above), its joined words apart and its camel-case words in parts (below). */
function readAsWords(text: string): string {
  const paired = HAS_UNSPACED.test(text) ? inPairs(text) : text;
  const apart = paired.replace(JOINERS, ' ');
  return CAMEL.test(apart) ? apart.replace(LETTERS_AND_DIGITS, withParts) : apart;
}

function inPairs(text: string): string {
  let budget = PAIRED_CHARACTERS;
  return text.replace(UNSPACED, (run) => {
    if (budget <= 0) return run;
    const paired = run.length <= budget ? run : run.slice(0, cutBefore(run, budget));
    budget -= paired.length;
    return ` ${pairsThenCharacters(paired)} ${run.slice(paired.length)}`;
  });
}

/**
 * What PostgreSQL's parser reads as part of a word and SQLite's tokenizer does not: a dot, slash, at sign or colon
 * between letters or digits ("a.b", "a/b", "a@b", "a://b": a file, host, e-mail or version, one word each); a dot,
 * slash or tilde opening a word ("/etc", ".env", "~/.bashrc": a path); and a plus or minus sign before a digit, a
 * number's sign to PostgreSQL ("2024-03-15" as 2024, -03, -15; "ABC-123" as abc, -123; "+1"), so that a query's "15"
 * or "123" did not match there. Other hyphens are not among them: both engines read "react-router" as its words
 * (PostgreSQL as the whole too). An underscore is not either: both engines split at it; only a query's words (ICU's)
 * keep it, and `joinedParts` splits them there.
 */
const JOINERS = /(?<=[\p{L}\p{N}])[./@:]+(?=[\p{L}\p{N}])|(?<![\p{L}\p{N}])[./~]+(?=[\p{L}\p{N}])|[+-](?=\p{N})/gu;
/** The parts of a query's word as the index reads it: split where JOINERS or an underscore join its words. */
const QUERY_JOINERS = /[./@:_]+/;

/**
 * Camel case: a lower-case letter before a capital ("getUser"), or a capital before a capital and two lower-case
 * letters ("HTTPServer"). Not a capital before one lower-case letter: "IDs", "APIs" are plurals, not two words.
 */
const CAMEL = /\p{Ll}\p{Lu}|\p{Lu}\p{Lu}\p{Ll}\p{Ll}/u;
/** Where JOINERS or CAMEL may match text of ASCII only (two patterns: one with four branches cost twice as much). */
const JOINED_IN_ASCII = /[./@:~][0-9A-Za-z]|[+-][0-9]/;
const CAMEL_IN_ASCII = /[a-z][A-Z]|[A-Z][A-Z][a-z][a-z]/;
const HUMP = /(?<=\p{Ll})(?=\p{Lu})|(?<=\p{Lu})(?=\p{Lu}\p{Ll}{2})/u;
const LETTERS_AND_DIGITS = /[\p{L}\p{M}\p{N}]+/gu;

/** A word, and after it its camel-case parts when it has several: "getUserById get User By Id". */
function withParts(word: string): string {
  const parts = word.split(HUMP);
  return parts.length > 1 ? `${word} ${parts.join(' ')}` : word;
}

/**
 * A query's word (ICU's, lower-cased) as the index's words apart: "userservice.ts" → ["userservice", "ts"],
 * "redis_url" → ["redis", "url"]; any other word as it is.
 */
export const joinedParts = (word: string): string[] =>
  QUERY_JOINERS.test(word) ? word.split(QUERY_JOINERS).filter(Boolean) : [word];

/**
 * What the keyword index holds for `text` when it differs from the text as written, else null: the column
 * PostgreSQL's index reads instead of the content (migration 0025), empty for most memories.
 */
export const keywordTextIfOther = (text: string): string | null => {
  const read = keywordText(text);
  return read === text ? null : read;
};

/**
 * One word of a query as the index's words: without diacritics; a word of an unspaced script as its pairs of
 * characters in order (one character alone as itself). "咖啡" → ["咖啡"], "北京大学" → ["北京", "京大", "大学"].
 */
export function keywordWords(word: string): string[] {
  if (!NOT_ASCII.test(word)) return [word];
  const folded = withoutDiacritics(word).replace(APOSTROPHES, "'");
  if (!HAS_UNSPACED.test(folded)) return [folded];
  const words: string[] = [];
  for (const part of folded.split(UNSPACED_SPLIT)) {
    if (!part) continue;
    if (!HAS_UNSPACED.test(part)) words.push(part);
    else {
      const characters = Array.from(part);
      if (characters.length === 1) words.push(part);
      else for (let i = 1; i < characters.length; i++) words.push(`${characters[i - 1]}${characters[i]}`);
    }
  }
  return words;
}

/** A text in pieces: its runs of unspaced scripts, and what lies between them. */
export const unspacedRuns = (text: string): string[] => text.split(UNSPACED_SPLIT).filter(Boolean);

/**
 * A searched term or phrase as a phrase of the index's words: "José García" → "Jose Garcia", "北京大学" → "北京 京大 大学"
 * (adjacent in the index wherever the word is written), "咖啡" → "咖啡", "Node.js" → "Node js".
 */
export const keywordPhrase = (phrase: string): string =>
  NOT_ASCII.test(phrase) || QUERY_JOINERS.test(phrase)
    ? phrase.split(/\s+/).filter(Boolean).flatMap(joinedParts).flatMap(keywordWords).join(' ')
    : phrase;

/** Whether a word is of an unspaced script: its pairs are already adjacent words, so it joins no phrase of the query. */
export const isUnspaced = (word: string): boolean => HAS_UNSPACED.test(word);

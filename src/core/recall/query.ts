import { hyphenatedCompounds, isUnspaced, joinedParts, keywordWords, unspacedRuns } from '../../text/keyword-text.js';
import { STOPWORDS } from '../text/stopwords.js';
import { words } from '../text/index.js';
import { clippingForms } from '../text/clippings.js';
import { otherNounForms } from '../text/irregular-nouns.js';
import { otherVerbForms } from '../text/irregular-verbs.js';
import { numberForms } from '../text/number-words.js';
import { otherSpellings } from '../text/spelling.js';
import { POSSESSIVE, stem } from './evidence.js';
import { findTimeWindows, type TimeWindow } from './temporal.js';

/** What recall reads out of a query before searching. */
export interface ProcessedQuery {
  text: string;
  /** Content words (stopwords and question words dropped), de-duplicated, in query order: the keyword arm's terms. */
  terms: string[];
  /**
   * Other forms of a term, per term: of an irregular verb ("drawing" -> draw, drew, drawn) or noun ("children" ->
   * child: text/irregular-nouns.ts), a word of work written short or in full ("prod" -> production, "certificate" ->
   * cert: text/clippings.ts), a number in words or digits ("three" -> 3, "2nd" -> second: text/number-words.ts), and
   * a word's British or American spelling ("colour" -> color: text/spelling.ts).
   */
  termForms: Map<string, string[]>;
  /**
   * Synonyms searched for terms that match no memory of the workspace ("couch" -> sofa), or where none matches, the
   * broader words they are a kind of ("kayak" -> canoe), per term; also among `termForms`. Empty until unmatched.ts
   * has counted the terms.
   */
  synonyms: Map<string, string[]>;
  /**
   * Terms that match no memory of the workspace and for which nothing is searched in their place (no synonym,
   * broader or narrower word matches, nor a later sense's word that fits; unmatched.ts): no memory can hold them, so
   * a search for memories holding every word of the query leaves them out. Empty until unmatched.ts has counted the
   * terms.
   */
  absent: Set<string>;
  /** Pairs of content words adjacent in the query ("support group"): phrase terms for the keyword arm. */
  phrases: string[];
  /**
   * Every word of the query in order, stopwords too, lower-cased, possessives dropped: where unmatched.ts looks for
   * the thesaurus's phrases ("try out").
   */
  said: string[];
  /** Names and quoted phrases, as written (e.g. "Dr. Seuss", "Caroline"): the entity arm's anchors. */
  entities: string[];
  /** Time windows the query names ("in May 2023", "last week", "yesterday"). */
  windows: TimeWindow[];
}

/** Words that open questions and requests; capitalised at the start, they are not names. */
const QUESTION_WORDS = new Set([
  'what',
  'when',
  'where',
  'who',
  'whom',
  'whose',
  'which',
  'why',
  'how',
  'did',
  'does',
  'do',
  'is',
  'are',
  'was',
  'were',
  'can',
  'could',
  'would',
  'should',
  'will',
  'has',
  'have',
  'had',
]);
/** Verbs that open a request ("Tell me about …", "List the …"); elsewhere in a query they are content. */
const REQUEST_VERBS = new Set([
  'tell',
  'list',
  'show',
  'find',
  'give',
  'describe',
  'remind',
  'recall',
  'summarize',
  'summarise',
]);

/** Words too general to search for on their own in a question (they match nearly everything). */
const QUERY_FILLER = new Set([
  ...QUESTION_WORDS,
  'kind',
  'kinds',
  'type',
  'types',
  'sort',
  'much',
  'many',
  'long',
  'ago',
  'ever',
  'likely',
  'think',
  'know',
  'something',
  'anything',
  'someone',
  'anyone',
  'get',
  'got',
  'one',
  'ones',
]);

const QUOTED = /"([^"]{2,100})"|“([^”]{2,100})”/g;
/** A capitalised word (letters, inner apostrophes/hyphens/dots for "O'Neil", "Jean-Luc", "Dr."), with its position. */
const CAPITALISED = /\p{Lu}[\p{L}\p{M}\p{N}'’-]*[\p{L}\p{M}\p{N}]|\p{Lu}/gu;
/** Calendar words are capitalised but name times, not entities; the temporal step reads them. */
const CALENDAR = new Set(
  'january february march april may june july august september october november december jan feb mar apr jun jul aug sep sept oct nov dec monday tuesday wednesday thursday friday saturday sunday'.split(
    ' ',
  ),
);
/** Between two words of one name: a space, or an abbreviation's dot and a space ("Dr. Seuss"). */
const NAME_GAP = /^\.?\s$/;
/**
 * Longer runs of capitalised words are not a name (a title-cased paragraph), and longer "words" are not words
 * ("a.b.c…" is one word to ICU): as a search they are phrases of thousands of tokens, each matched at every
 * position of every candidate (seconds per query on one long memory).
 */
const MAX_NAME_WORDS = 6;
const MAX_TERM_CHARS = 64;

/**
 * Proper nouns of a query: runs of capitalised words that are not the sentence's opening question word or a
 * stopword. "When did Melanie meet Dr. Seuss" gives ["Melanie", "Dr. Seuss"].
 */
function properNouns(text: string): string[] {
  const names: string[] = [];
  let run: string[] = [];
  let runEnd = -1;
  const flush = () => {
    if (run.length > 0 && run.length <= MAX_NAME_WORDS) names.push(run.join(' '));
    run = [];
  };
  for (const match of text.matchAll(CAPITALISED)) {
    const start = match.index;
    const word = match[0].replace(POSSESSIVE, '');
    const lower = word.toLowerCase().replace(/\.$/, '');
    const atSentenceStart =
      /(^\s*|[.!?]\s+)$/.test(text.slice(0, start)) &&
      !(run.length > 0 && NAME_GAP.test(text.slice(runEnd, start)) && run.at(-1)!.length <= 3);
    const skip =
      lower.length < 2 ||
      STOPWORDS.has(lower) ||
      CALENDAR.has(lower) ||
      (atSentenceStart && (QUESTION_WORDS.has(lower) || REQUEST_VERBS.has(lower)));
    const gap = text.slice(runEnd, start);
    // Consecutive capitalised words form one name; a dot only joins after a short abbreviation ("Dr.", "St.").
    const joins = run.length > 0 && NAME_GAP.test(gap) && (gap.length === 1 || run.at(-1)!.length <= 3);
    if (skip || !joins) flush();
    if (!skip) run.push(gap.startsWith('.') && joins ? `${run.pop()!}. ${word}`.replace(/^\. /, '') : word);
    runEnd = start + match[0].length;
  }
  flush();
  return names;
}

/** Other forms of a term that is an irregular verb, also through its inflection ("drawing" -> draw, drew, drawn). */
function verbForms(term: string): string[] {
  const direct = otherVerbForms(term);
  if (direct.length > 0) return direct;
  const base = stem(term);
  const fromBase = base === term ? [] : otherVerbForms(base);
  return fromBase.length > 0 ? [base, ...fromBase] : [];
}

/**
 * A synonym as it is searched: with its other verb forms, as the query's own words are ("buy" or "bought"), and a
 * word ending in e after a consonant with its "d" ("examine", "examined"): the light stemmer recall counts held words
 * with (evidence.ts `stem`) leaves those two apart, so a memory saying "examined" did not count as holding the
 * synonym "examine" (keyword search, on Porter stems, found it). Changed in the stemmer itself it cost LoCoMo
 * conversation 26 a question (src/core/recall/README.md, "Words that match nothing").
 */
export const synonymForms = (synonym: string): string[] => [
  synonym,
  ...verbForms(synonym),
  ...(/[^aeiou]e$/.test(synonym) ? [`${synonym}d`] : []),
];

/**
 * The query's words as the keyword index reads them: "médecin" as medecin; a word of an unspaced script (Chinese,
 * Thai…) as its pairs of characters (src/text/keyword-text.ts). ICU's dictionary finds the words of such a run ("我女儿在哪里上学" as
 * 我 女儿 在 哪里 上学), so its pairs across words ("我女", "在哪"), which no memory about a daughter need hold, are not
 * asked; but it splits a word it does not know into characters ("咖喱", curry, into 咖 and 喱), and single characters
 * match every memory holding them (咖 every memory about 咖啡): characters it leaves alone side by side are read as
 * one word again.
 */
export function queryWords(text: string): string[] {
  if (!isUnspaced(text)) return spacedWords(text);
  return unspacedRuns(text).flatMap((piece) => (isUnspaced(piece) ? unspacedWords(words(piece)) : spacedWords(piece)));
}

/** Words of spaced text as the index's words: joined words apart ("userservice.ts" as userservice, ts). */
const spacedWords = (text: string): string[] => words(text).flatMap(joinedParts).flatMap(keywordWords);

/** ICU's words of a run of an unspaced script as the index's words, characters left alone side by side joined. */
function unspacedWords(segmented: readonly string[]): string[] {
  const found: string[] = [];
  let alone = '';
  const flush = () => {
    if (alone) found.push(...keywordWords(alone));
    alone = '';
  };
  for (const word of segmented) {
    if (Array.from(word).length === 1) alone += word;
    else {
      flush();
      found.push(...keywordWords(word));
    }
  }
  flush();
  return found;
}

const LOWER_CASE = /\p{Ll}/u;
const WORD_OF_LETTERS = /\p{L}{2,}/gu;

/**
 * A question written in capitals throughout ("WHERE DOES MAYA LIVE?") is read in lower case: its capitals say nothing
 * of which words are names, and the local model reads a sentence in capitals far from the same words in any other
 * case. Asked in capitals LoCoMo's questions found 0.603 of their evidence in the top 10, asked in lower case 0.723,
 * as asked 0.715 (`LOCOMO_CASE`, BENCHMARKS.md). A word alone ("NASA") is left as written: an acronym.
 */
export function withoutShouting(text: string): string {
  if (LOWER_CASE.test(text) || (text.match(WORD_OF_LETTERS)?.length ?? 0) < 2) return text;
  return text.toLowerCase();
}

/**
 * The query's hyphenated compounds as one word, per part: "follow-up" → follow: [followup]. Each part that is a term
 * asks for the compound written as one word ("followup", which a memory writing "follow-up" holds too:
 * text/keyword-text.ts) beside itself, so that "check in", "check-in" and "checkin" all answer "check-in", and "Jean
 * Luc" still answers "Jean-Luc".
 */
function compoundsOfParts(text: string): Map<string, string[]> {
  const forms = new Map<string, string[]>();
  for (const { parts, joined } of hyphenatedCompounds(text.toLowerCase())) {
    const [word] = keywordWords(joined);
    for (const part of parts.flatMap(keywordWords)) forms.set(part, [...(forms.get(part) ?? []), word!]);
  }
  return forms;
}

export function processQuery(text: string, now: Date): ProcessedQuery {
  const quotedPhrases = [...text.matchAll(QUOTED)].map((m) => (m[1] ?? m[2] ?? '').trim()).filter(Boolean);
  const names = properNouns(text.replace(QUOTED, ' '));
  const seen = new Set<string>();
  const entities = [...quotedPhrases, ...names].filter((e) => {
    const key = e.toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  const windows = findTimeWindows(text, now);
  // Words of relative time expressions ("last", "week", "ago") match any text; their window does the work.
  const relativeWords = new Set(windows.filter((w) => w.relative).flatMap((w) => words(w.text)));
  const all = queryWords(text);
  const opening = REQUEST_VERBS.has(all[0] ?? '') ? 1 : 0;
  const isTerm = (w: string) =>
    w.length <= MAX_TERM_CHARS && !STOPWORDS.has(w) && !QUERY_FILLER.has(w) && !relativeWords.has(w);
  // Pairs of characters are adjacent words already; between words they are no phrase the index holds in a row.
  const inPhrase = (w: string) => isTerm(w) && !isUnspaced(w);
  const said = all.map((w) => w.replace(POSSESSIVE, ''));
  const cleaned = said.slice(opening);
  const terms = [...new Set(cleaned.filter(isTerm))];
  const phrases = [
    ...new Set(
      cleaned.slice(1).flatMap((w, i) => (inPhrase(w) && inPhrase(cleaned[i]!) ? [`${cleaned[i]} ${w}`] : [])),
    ),
  ];
  // A date's day is no count: "on 3 June" asks nothing of "three".
  const dateWords = new Set(windows.flatMap((w) => words(w.text)));
  const compounds = compoundsOfParts(text);
  const termForms = new Map<string, string[]>();
  for (const term of terms) {
    const numbers = dateWords.has(term) ? [] : numberForms(term);
    const others = [
      ...verbForms(term),
      ...otherNounForms(term),
      ...clippingForms(term),
      ...numbers,
      ...otherSpellings(term),
      ...(compounds.get(term) ?? []),
    ].filter((f) => !terms.includes(f));
    if (others.length > 0) termForms.set(term, others);
  }
  return { text, terms, termForms, synonyms: new Map(), absent: new Set(), phrases, said, entities, windows };
}

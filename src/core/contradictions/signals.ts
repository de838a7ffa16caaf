import { chrono } from '../text/dates.js';
import { words } from '../text/index.js';
import { keepRecentResults, RECENT_TEXTS } from '../text/recent.js';
import { contentWords, STOPWORDS } from '../text/stopwords.js';
import { extractSlots, OPINION_OF, slotConflicts } from './slots.js';

export type ConflictKind = 'negation' | 'number_change' | 'date_change' | 'exclusive_value' | 'stated_change';

export interface ConflictSignal {
  kind: ConflictKind;
  detail: string;
  /**
   * How much the signal alone says the statements disagree; an exclusive value of a strong slot (same subject,
   * same single-valued attribute, different values) says more than a lone negation or a changed number.
   */
  strength: number;
  /** The statements must be at least this similar for the signal to count (cosine, for a semantic embedder). */
  minSimilarity: number;
}

/** Cosine similarity of statements about the same topic; below it, a changed number is about another thing. */
export const TOPIC_SIMILARITY = 0.7;
/** A strong slot already names the topic (same subject and attribute): related statements suffice. */
export const SLOT_SIMILARITY = 0.5;

const NEGATIONS = new Set(['not', 'no', 'never', 'none', 'nobody', 'nothing', 'neither', 'nor', 'without', 'cannot']);

const isNegation = (token: string): boolean => NEGATIONS.has(token) || token.endsWith("n't");

/** A crude stem, enough to see that "uses" and "use" are one word. */
const stem = (word: string): string => word.replace(/(?<=\w{3})(?:ing|ed)$/, '').replace(/(?<=\w{2}[^s])s$/, '');

/**
 * A negation, or a bare changed number or date, counts only when the rest of the two statements is mostly the same
 * ("uses X" vs "does not use X"; "port 8080" vs "port 9090"): two different statements that both hold a number
 * (a ticket number, another team's figure) are not in conflict.
 */
const REST_MIN_OVERLAP = 0.5;

/** The statements' content-word stems both hold, and all they hold, leaving out the tokens `ignored` says. */
function sharedStems(
  tokensA: readonly string[],
  tokensB: readonly string[],
  ignored: (token: string) => boolean,
): { shared: number; union: number; onlyA: number; onlyB: number } {
  const rest = (tokens: readonly string[]) => new Set(contentWords(tokens.filter((t) => !ignored(t))).map(stem));
  const restA = rest(tokensA);
  const restB = rest(tokensB);
  const shared = [...restA].filter((w) => restB.has(w)).length;
  return { shared, union: restA.size + restB.size - shared, onlyA: restA.size - shared, onlyB: restB.size - shared };
}

/** Shared share (Jaccard) of the statements' content-word stems, leaving out the tokens `ignored` says. */
function restOverlap(
  tokensA: readonly string[],
  tokensB: readonly string[],
  ignored: (token: string) => boolean,
): number {
  const { shared, union } = sharedStems(tokensA, tokensB, ignored);
  return union === 0 ? 0 : shared / union;
}

/**
 * The rest of the two statements (but the tokens `ignored` says) mostly the same, and what one says beyond the other
 * on one side only: one statement negates what the other asserts ("Kim is coming to the party tomorrow." of "Kim is
 * not coming to the party."). Where each says something the other does not, they are about two things: "Sam is
 * allergic to peanuts." and "Sam is not allergic to shellfish." had been recorded as a negation (2026-12-06).
 */
function oneSaidOtherwise(
  tokensA: readonly string[],
  tokensB: readonly string[],
  ignored: (token: string) => boolean,
): boolean {
  const { shared, union, onlyA, onlyB } = sharedStems(tokensA, tokensB, ignored);
  return union > 0 && shared / union >= REST_MIN_OVERLAP && (onlyA === 0 || onlyB === 0);
}

const hasDigit = (token: string): boolean => /\d/.test(token);

/** A capitalised word, as written: a name, or a sentence's first word. */
const CAPITALISED = /(?<![\p{L}\p{N}])\p{Lu}[\p{L}'’-]*/gu;

/** The names a text writes: its capitalised words but function words ("The", "I", "Our"). */
function namesIn(text: string): Set<string> {
  return new Set(
    (text.match(CAPITALISED) ?? []).map((word) => word.toLowerCase()).filter((word) => !STOPWORDS.has(word)),
  );
}

/**
 * Each statement names someone or something the other does not: "Lena scored 72% on the algebra quiz." and "Tom
 * scored 90% on the algebra quiz." are two people's scores, "The Berlin office has 40 people" and "The Munich office
 * has 55 people" two offices, not a number that changed (the first was recorded as one, 2026-12-05). The same holds
 * for a negation and a date. A statement naming nobody ("The tests take 12 minutes") may be the other said anew.
 */
function namesApart(a: string, b: string): boolean {
  const [namesA, namesB] = [namesIn(a), namesIn(b)];
  return [...namesA].some((name) => !namesB.has(name)) && [...namesB].some((name) => !namesA.has(name));
}

/** One statement negates the other: a negation word in one of them only, the rest said alike. */
function negationSignal(
  a: string,
  b: string,
  tokensA: readonly string[],
  tokensB: readonly string[],
): ConflictSignal | null {
  if (tokensA.some(isNegation) === tokensB.some(isNegation)) return null;
  if (namesApart(a, b) || !oneSaidOtherwise(tokensA, tokensB, isNegation)) return null;
  return negation('one statement negates the other');
}

const negation = (detail: string): ConflictSignal => ({
  kind: 'negation',
  detail,
  strength: 0.75,
  minSimilarity: TOPIC_SIMILARITY,
});

/**
 * States of which a thing is in one at a time, as written (lower-cased): "The office is closed on Sunday." and "The
 * office is open on Sunday." say what a negation would, with no negation word.
 */
const OPPOSITE_STATES: ReadonlyArray<readonly [string, string]> = [
  ['open', 'closed'],
  ['enabled', 'disabled'],
  ['active', 'inactive'],
  ['available', 'unavailable'],
  ['online', 'offline'],
  ['public', 'private'],
  ['locked', 'unlocked'],
  ['paid', 'unpaid'],
  ['valid', 'invalid'],
  ['visible', 'hidden'],
  ['married', 'single'],
  ['alive', 'dead'],
  ['present', 'absent'],
  ['approved', 'rejected'],
  ['passed', 'failed'],
  ['complete', 'incomplete'],
  ['full', 'empty'],
];
const OPPOSITE = new Map(OPPOSITE_STATES.flatMap(([x, y]) => [[x, y] as const, [y, x] as const]));

/** The two statements say the same of one thing but for one state and its opposite, and nothing else apart. */
function oppositeStateSignal(
  a: string,
  b: string,
  tokensA: readonly string[],
  tokensB: readonly string[],
): ConflictSignal | null {
  const statesB = new Set(tokensB.filter((t) => OPPOSITE.has(t)));
  const state = tokensA.find((t) => statesB.has(OPPOSITE.get(t)!) && !statesB.has(t));
  if (state === undefined) return null;
  const opposite = OPPOSITE.get(state)!;
  if (tokensA.includes(opposite)) return null;
  // "not open" and "closed" agree; "not open" and "not closed" do not.
  if (tokensA.some(isNegation) !== tokensB.some(isNegation)) return null;
  const isState = (token: string) => token === state || token === opposite;
  if (namesApart(a, b) || !oneSaidOtherwise(tokensA, tokensB, isState)) return null;
  return negation(`${state} vs ${opposite}`);
}

const DATE_PARTS = ['year', 'month', 'day', 'weekday', 'hour', 'minute'] as const;

interface StatedDate {
  text: string;
  start: number;
  end: number;
  /** Only the parts the text states: "May 3" has a month and a day, not a year. */
  parts: Partial<Record<(typeof DATE_PARTS)[number], number>>;
}

/** Absolute and weekday dates; a fixed reference keeps relative ones ("tomorrow") comparable between texts. */
const REFERENCE_DATE = new Date('2000-01-01T00:00:00Z');

/** The dates a text states, kept for recently seen texts: a text is compared with each of its neighbours. */
const datesIn: (text: string) => readonly StatedDate[] = keepRecentResults(
  (text) =>
    chrono.parse(text, REFERENCE_DATE).map((result) => {
      const parts: StatedDate['parts'] = {};
      for (const part of DATE_PARTS)
        if (result.start.isCertain(part)) parts[part] = result.start.get(part) ?? undefined;
      return { text: result.text, start: result.index, end: result.index + result.text.length, parts };
    }),
  RECENT_TEXTS,
);

/** Two dates agree when every part both state is the same: "May 3" agrees with "May 3rd, 2026". */
const datesAgree = (x: StatedDate, y: StatedDate): boolean =>
  DATE_PARTS.every((p) => x.parts[p] === undefined || y.parts[p] === undefined || x.parts[p] === y.parts[p]);

/** The text with its date expressions blanked out (same length, so offsets hold). */
const withoutDates = (text: string, dates: readonly StatedDate[]): string =>
  dates.reduceRight((t, d) => `${t.slice(0, d.start)}${' '.repeat(d.end - d.start)}${t.slice(d.end)}`, text);

/**
 * Numbers of a text whose dates are blanked out, decimals and ordinals included ("3rd" → "3"). A number after `#`
 * names a thing (a ticket, an issue, a serial) rather than stating an amount: "bug #123" and "bug #456" are two bugs,
 * and such labels made templated statements that differ only in them look like changed numbers (16,038 findings
 * among 5,000 memories of bench:ingest's sentences, BENCHMARKS.md, "enrichment on PostgreSQL").
 */
const numbersIn = (undated: string): string[] =>
  (undated.match(/(?<![#\d])\d+(?:[.,]\d+)?/g) ?? []).map((n) => n.replace(',', '.'));

/**
 * Both statements give one subject's opinion of one thing: whether they agree is the opinion slot's to say, not a
 * negation's. "Maya hates jazz." and "Maya doesn't like jazz." hold one negation between them and say the same; a
 * negation signal had recorded them as a contradiction.
 */
function opinionsOfOneThing(a: string, b: string): boolean {
  const opinions = (text: string) => extractSlots(text).filter((slot) => slot.attribute.startsWith(OPINION_OF));
  const ofB = opinions(b);
  return opinions(a).some((x) => ofB.some((y) => x.subject === y.subject && x.attribute === y.attribute));
}

/** Exclusive values; one that is a date is reported as the date change it is ("the deadline: may 3 vs june 10"). */
function slotSignals(a: string, b: string): ConflictSignal[] {
  return slotConflicts(extractSlots(a), extractSlots(b)).map(([x, y]) => ({
    kind: datesIn(x.value).length > 0 && datesIn(y.value).length > 0 ? 'date_change' : 'exclusive_value',
    detail: `${x.subject === 'self' ? '' : `${x.subject} `}${x.attribute}: ${x.value} vs ${y.value}`,
    strength: x.strength === 'strong' ? 0.9 : 0.7,
    minSimilarity: x.strength === 'strong' ? SLOT_SIMILARITY : TOPIC_SIMILARITY,
  }));
}

/**
 * Words with which a statement says that something changed: "switched to spaces", "the deadline moved to April 10",
 * "we replaced Jenkins", "no longer", "instead", "anymore", and an amount's "raised", "reduced", "doubled" ("Acme
 * reduced the deal to 30k EUR a year" of "The Acme deal is worth 40k EUR a year", whose other words differ too much
 * for a bare changed number; 2026-12-05). Past forms only: "changes", "moves" and "switches" are as
 * often nouns ("handling the changes", "sweet moves"). Not "now": chat says it of every moment ("I'm off to spend
 * some time with them now"). With both, LoCoMo's three conversations gave 8 stated changes, every one false, 6 of
 * them by "now" (BENCHMARKS.md, "a stated change").
 */
const CHANGE_WORDS =
  /\b(?:switched|changed|moved|migrated|replaced|postponed|rescheduled|raised|increased|reduced|decreased|lowered|doubled|halved|no longer|instead|anymore)\b/;
const EVERY_CHANGE_WORD = new RegExp(CHANGE_WORDS.source, 'g');
const isChangeWord = (token: string): boolean => CHANGE_WORDS.test(token) || token === 'now';
/**
 * "now" between a subject and its verb in the present: "the ledger service now uses CockroachDB", "Ana now leads the
 * team", "the office now is in Porto". Not chat's "now" of the moment, which comes before a pronoun or at a clause's
 * end ("now you're helping others", "spend some time with them now"), nor "Now is the time" (no subject before it).
 */
const NOW_STATED = /\w+,? now (?:is|are|has|have|([a-z]{3,}s))\b/;
/** Words in -s that follow "now" and are no verb. */
const NOT_VERBS = new Set([
  'this',
  'thus',
  'its',
  'his',
  'was',
  'yours',
  'ours',
  'theirs',
  'days',
  'times',
  'guys',
  'thanks',
  'less',
]);
/**
 * A failure a statement reports ("Omar cannot log in", "CSV exports time out", "the build is broken"), and a later
 * statement saying it is over ("login works now", "the export bug is fixed", "we fixed it"): a change of the failure,
 * said without a change word. "fixed" only after a subject or an auxiliary: "a fixed price" repairs nothing.
 */
const FAILURE =
  /\b(?:cannot|can't|couldn't|never|fails?|failed|failing|broken|broke|crash(?:es|ed)?|times? out|timed out|not working|doesn't work|won't work|(?:is|are|was|were|went) down)\b/;
const REPAIRED =
  /\b(?:works now|now works|working again|works again|(?:is|are) back(?: up| online)?|up again|(?:is|are|was|were|got|been) (?:now )?(?:fixed|resolved|solved)|(?:we|they|i|he|she|you|it) (?:have |has |had )?(?:fixed|resolved|solved)|fixed now|resolved now)\b/;
/** The words of a failure and of its repair: what changed, not what the statements are about. */
const FAILURE_OR_REPAIR_WORDS = new Set([
  'cannot',
  "couldn't",
  'never',
  'crash',
  'crashes',
  'crashed',
  'down',
  'back',
  'online',
  'work',
  'fail',
  'fails',
  'failed',
  'failing',
  'broken',
  'broke',
  'works',
  'working',
  'again',
  'fixed',
  'resolved',
  'solved',
]);

/**
 * How the later statement says it changed ("switched", "now uses", "works now" of an earlier failure), and its words
 * to compare with the earlier one's: without what "instead of" names as replaced, which the earlier statement holds ("… run on GitHub Actions instead of
 * Jenkins" / "… run on Jenkins"). None when it says nothing of a change.
 */
function changeSaid(earlier: string, later: string): { word: string; compared: string; repair?: true } | null {
  const lower = later.toLowerCase();
  let held: Set<string> | undefined; // the earlier statement's stems, read only for "instead of"
  for (const said of lower.matchAll(EVERY_CHANGE_WORD)) {
    if (said[0] !== 'instead') return { word: said[0], compared: later };
    // "instead of" names what was replaced: a change of the earlier statement only where that is what it says ("We
    // will inject a fake clock into the tests instead of sleeping" changes nothing of "The tests share one clock").
    const end = said.index + said[0].length;
    const replaced = /^\s+of\s+[^,.;!?]+/.exec(lower.slice(end));
    if (!replaced) return { word: said[0], compared: later };
    held ??= new Set(contentWords(words(earlier)).map(stem));
    if (!contentWords(words(replaced[0])).some((word) => held!.has(stem(word)))) continue;
    return { word: said[0], compared: later.slice(0, said.index) + later.slice(end + replaced[0].length) };
  }
  const repaired = REPAIRED.exec(lower);
  if (repaired && FAILURE.test(earlier.toLowerCase())) return { word: repaired[0], compared: later, repair: true };
  const now = NOW_STATED.exec(lower);
  return now && !(now[1] && NOT_VERBS.has(now[1]))
    ? { word: now[0].slice(now[0].indexOf('now')), compared: later }
    : null;
}
/**
 * A clause giving the reason or the moment of a change, with a subject of its own ("after the multi-region
 * requirement came in", "because the team grew"): what it names is not what changed, and its words dilute the share
 * of words the statements have in common.
 */
const REASON_CLAUSE =
  /,?\s+(?:after|because|since|once|when)\s+(?:the|a|an|we|it|they|he|she|i|you|our|my|his|her|their)\b.*$/i;
/**
 * A stated change counts where the statements share at least this many content-word stems (change words and numbers
 * aside) and this share of all they hold: the same thing said of the same subject ("the user … indentation …
 * spaces"), not one word in common ("the standup is in room 4" / "the standup moved to 10am").
 */
const CHANGE_MIN_SHARED = 3;
const CHANGE_MIN_OVERLAP = 0.3;

/**
 * The later statement says that what the earlier one states has changed: a change word in it, and mostly the same
 * words otherwise. "The user prefers tabs over spaces for indentation." / "The user switched to spaces for
 * indentation after the style guide changed." share no single-valued attribute the slots know, no negation, no date,
 * and are the correction an agent most often writes. Only the later statement's words count: "I moved to a new desk"
 * said first and "I sit at a new desk" after is no change of the first.
 */
function stateChangeSignal(earlier: string, later: string): ConflictSignal | null {
  // A question asks; it states no change ("How're you handling the changes?").
  if (earlier.includes('?') || later.includes('?')) return null;
  const said = changeSaid(earlier, later);
  if (!said) return null;
  const { compared, repair } = said;
  const ignored = (token: string) => hasDigit(token) || isChangeWord(token) || FAILURE_OR_REPAIR_WORDS.has(token);
  // Dates' words stay: a month or "afternoon" is what a change of time replaces ("after noon" → "in the afternoon").
  const overlapping = (laterText: string) => {
    const { shared, union, onlyA, onlyB } = sharedStems(words(earlier), words(laterText), ignored);
    // A change replaces something: each statement holds a word the other does not (the same statement again is none).
    // A repair replaces the failure, whose words are left out: "The nightly build is broken on main." / "We fixed the
    // nightly build on main." have nothing else apart.
    return shared >= CHANGE_MIN_SHARED && shared / union >= CHANGE_MIN_OVERLAP && (repair || (onlyA > 0 && onlyB > 0));
  };
  // The reason's words may be what the two share ("…, since Sam moved to the data team"): with them or without.
  const withoutReason = compared.replace(REASON_CLAUSE, '');
  if (!overlapping(compared) && (withoutReason === compared || !overlapping(withoutReason))) return null;
  return {
    kind: 'stated_change',
    detail: `the later statement says it changed ("${said.word}")`,
    strength: 0.75,
    minSimilarity: SLOT_SIMILARITY,
  };
}

/**
 * Cheap evidence that two statements disagree: one negates what the other asserts; they state different dates or
 * numbers; they give one attribute of one subject different values ("lives in Paris" / "moved to Berlin"); or the
 * later one (`b`) says that what the earlier one states changed (`stateChangeSignal`).
 * Whole tokens only: "this" does not contain the negation "is". Each signal says how similar the statements must
 * be for it to count; callers that know the similarity apply `minSimilarity`, others take any signal as a warning.
 */
export function conflictSignals(a: string, b: string): ConflictSignal[] {
  const signals: ConflictSignal[] = [];
  if (!opinionsOfOneThing(a, b)) {
    const [tokensA, tokensB] = [words(a), words(b)];
    const negated = negationSignal(a, b, tokensA, tokensB) ?? oppositeStateSignal(a, b, tokensA, tokensB);
    if (negated) signals.push(negated);
  }

  const slots = slotSignals(a, b);
  const datesA = datesIn(a);
  const datesB = datesIn(b);
  const undatedA = withoutDates(a, datesA);
  const undatedB = withoutDates(b, datesB);
  // Dates and numbers aside, do the statements say the same thing?
  const sameStatement =
    restOverlap(words(undatedA), words(undatedB), hasDigit) >= REST_MIN_OVERLAP && !namesApart(undatedA, undatedB);
  // A date of a single-valued attribute already says it better than the bare dates.
  const datedSlot = slots.some((s) => s.kind === 'date_change');
  if (
    sameStatement &&
    !datedSlot &&
    datesA.length > 0 &&
    datesB.length > 0 &&
    !datesA.some((x) => datesB.some((y) => datesAgree(x, y)))
  ) {
    signals.push({
      kind: 'date_change',
      detail: `${datesA.map((d) => d.text).join(', ')} vs ${datesB.map((d) => d.text).join(', ')}`,
      strength: 0.8,
      minSimilarity: TOPIC_SIMILARITY,
    });
  }
  const numbersA = numbersIn(undatedA);
  const numbersB = numbersIn(undatedB);
  if (sameStatement && numbersA.length > 0 && numbersB.length > 0 && numbersA.join(' ') !== numbersB.join(' ')) {
    signals.push({
      kind: 'number_change',
      detail: `${numbersA.join(', ')} vs ${numbersB.join(', ')}`,
      strength: 0.7,
      minSimilarity: TOPIC_SIMILARITY,
    });
  }
  signals.push(...slots);
  // A change the other signals already name (a moved date, a new value of an attribute) is not said twice.
  if (signals.length === 0) {
    const change = stateChangeSignal(a, b);
    if (change) signals.push(change);
  }
  return signals;
}

import { stemmer } from 'stemmer';
import type { KeywordTerm } from '../../storage/types.js';
import { acronymsSpelledIn, expansionsOf } from '../text/acronyms.js';
import { derivationsOf } from '../text/derivations.js';
import { lightVerbsBeforeNouns } from '../text/light-verbs.js';
import { spelledAsKnown, spellingsNear } from '../text/spelling.js';
import { STOPWORDS } from '../text/stopwords.js';
import {
  broaderOf,
  inThesaurus,
  laterSensesOf,
  narrowerOf,
  phrasesIn,
  relatedTo,
  synonymsOf,
  usedAlikeAs,
} from '../text/synonyms.js';
import { MAX_SCORED_MATCHES } from './arms.js';
import { termCoverage, tokens } from './evidence.js';
import { type KeywordEvidence, namesShare } from './keyword-score.js';
import type { MatchCountCache } from './match-counts.js';
import { type ProcessedQuery, synonymForms } from './query.js';

/**
 * The query with synonyms for the words it asks with that match no memory of the workspace: a word that matches nothing
 * adds nothing to any keyword search, while a synonym that does ("couch" where the memories say "sofa") is what the
 * asker meant in the workspace's words. Each such word gets up to `most` of the synonyms of its most frequent sense
 * (text/synonyms.ts) that match at least one memory, each with its other verb forms ("purchase" → buy, bought: a
 * synonym found only in its past tense is still found), or, where none does, up to `most` of the broader words that
 * sense is a kind of ("kayak" → canoe: a kayak is one), or, where none of those does either, of the narrower words that
 * are kinds of it ("coat" → jacket), both only where they fit the query's other words that match, if any; where none
 * of those does, up to `most` of the words of its later senses, where none of those either, of the words a thesaurus
 * of associations relates to it ("torch" → lantern), and last of the words used most like it ("pendant" → necklace),
 * in each case only those some memory holds beside the query's other words (`fitting`). A phrase the thesaurus holds
 * as one whose words all match nothing ("try out", "gave back") is looked up as a whole first, for each of its words, and where nothing is found for it its
 * words are not looked up alone; of words side by side that all match nothing and are no phrase ("water boiler"), only
 * the last is, where the table holds it. Before any of that, a word matching nothing beside another is searched as the
 * one word the two join into where a memory holds it ("log in" → login); words that match are asked as that word too,
 * beside themselves ("check in" → check or checkin). An acronym of text/acronyms.ts that the
 * query writes in capitals ("CI") is no name here but such a word, searched as what it stands for where a memory spells
 * that out ("continuous integration"), before the thesaurus; and the other way round, an expansion the query spells
 * out whose words all match nothing ("single sign-on") is searched as its acronym where a memory holds it ("SSO"). A
 * word that is no word of the thesaurus and for which nothing else is found is taken for a slip and searched as the
 * word one slip away that the most memories hold ("educaton" → education: text/spelling.ts). All
 * as alternative forms: the keyword searches, BM25 and coverage then count them as the word (as they count "drew" for
 * "draw"), and the entity arm searches them beside a name where it searches the word (query.ts `synonyms`). Words of
 * the names and dates the query names are left as they are, and so is a light verb before a noun ("took a picture
 * of": text/light-verbs.ts), whose relations ("take" → return) stand for nothing the query asks. Words that match
 * anything are never expanded: a thesaurus's other senses would only add noise to words the workspace already
 * answers (src/core/recall/README.md, "Words that match nothing"). "Matches" as the keyword arms count (storage's `keywordMatchCounts`): among the
 * workspace's own memories, on either backend, so that a word only another workspace uses is expanded all the same
 * (NOTES.md, "Keyword counts per workspace"). A word that matches nothing and gets nothing in its place (none of
 * those match either, `most` is 0, or it is not in the thesaurus) is returned among `absent`.
 */
export async function withSynonymsForUnmatched(
  query: ProcessedQuery,
  matchCounts: MatchCountCache,
  workspaceId: string,
  most: number,
): Promise<ProcessedQuery> {
  // An acronym of the table written as one ("CI", "SSO", "K8s") is taken for a name, but is a word the memories may
  // spell out ("continuous integration"): it is not held as it is. Written in lower case ("k8s", "api") it is no name.
  const acronyms = new Set([
    ...query.entities.filter(isAcronym).map((entity) => entity.toLowerCase()),
    ...query.terms.filter(isLowerCaseAcronym),
  ]);
  const fixed = new Set(
    [...query.entities, ...query.windows.map((window) => window.text)]
      .filter((text) => !acronyms.has(text.toLowerCase()))
      .flatMap((text) => text.toLowerCase().split(/[^\p{L}\p{N}]+/u)),
  );
  const phrases = askedPhrases(query, fixed);
  // Every word but the names' and dates' is counted, in the thesaurus or not: one that matches nothing and has
  // nothing searched in its place is `absent` (a typo, a word the workspace never uses). The keyword arms count the
  // same words anyway, and find these counts cached.
  const open = query.terms.filter((term) => !fixed.has(term));
  if (open.length === 0) return query;
  const asked = (term: string): KeywordTerm => {
    const forms = query.termForms.get(term);
    return forms ? [term, ...forms] : term;
  };
  // Words side by side that the memories may write as one ("log in" → login, "set up" → setup, "check in" → checkin,
  // "time zone" → timezone). Not after a function word: "a part" is not "apart", nor "a round" "around"; only where one
  // of the two is a word asked here (not a name's: "Dario Zamora" joins into nothing asked). Counted with the query's
  // words, in the same trip.
  const pairs = query.said.slice(0, -1).flatMap((word, i) => {
    const next = query.said[i + 1]!;
    const joined = word + next;
    if (STOPWORDS.has(word) || !JOINABLE.test(joined) || query.terms.includes(joined)) return [];
    return open.includes(word) || open.includes(next) ? [{ words: [word, next], joined }] : [];
  });
  const pairWords = most > 0 ? [...new Set(pairs.map(({ joined }) => joined))] : [];
  const counts = await matchCounts.matchCounts(
    workspaceId,
    [...open.map((term) => [asked(term)]), ...pairWords.map((word) => [word])],
    MAX_SCORED_MATCHES,
  );
  const unmatched = new Set(open.filter((_, i) => counts[i] === 0));
  const heldJoined = new Set(pairWords.filter((_, i) => counts[open.length + i]! > 0));
  // Of a pair whose words match memories, each of those words is also asked as the joined word where a memory holds
  // it: "check in at the hotel" finds "Lisbon hotel checkin needs a passport." as it finds "The check-in for the
  // hotel" (text/keyword-text.ts reads a compound as one word too). Another form of the word, as "drew" is of "draw";
  // the same word, so however many memories hold it.
  const joinedForms = new Map<string, string[]>();
  for (const { words, joined } of pairs)
    if (heldJoined.has(joined))
      for (const word of words)
        if (open.includes(word) && !unmatched.has(word))
          joinedForms.set(word, [...(joinedForms.get(word) ?? []), joined]);
  if (unmatched.size === 0 && joinedForms.size === 0) return query;
  /**
   * A word more than a tenth of the workspace's memories hold (and more than MAX_SCORED_MATCHES) is too common to be
   * searched in place of another: it tells no memory from the others and brings in those it is common in ("colour"
   * → work, its first sense's broader word, brought every memory saying "works as"). Read when first needed.
   */
  let commonCap: Promise<number> | undefined;
  /**
   * Of these words, those some memory of the workspace holds (with their verb forms) and none too common, in their
   * order. Each is counted alone up to `commonCap`, so that one count says both, and the keyword arms' counts of the
   * same words (up to a lower cap) are answered from it (match-counts.ts `countUpTo`).
   */
  const heldCounts = async (words: readonly string[]): Promise<Array<[word: string, memories: number]>> => {
    if (words.length === 0) return [];
    commonCap ??= matchCounts
      .documentCount(workspaceId)
      .then((documents) => Math.max(MAX_SCORED_MATCHES, Math.floor(COMMON_SHARE * documents)));
    const cap = await commonCap;
    const counts = await matchCounts.matchCounts(
      workspaceId,
      words.map((word) => [synonymForms(word)]),
      cap,
    );
    return words.flatMap((word, i) =>
      counts[i]! > 0 && counts[i]! <= cap ? [[word, counts[i]!] as [string, number]] : [],
    );
  };
  const usable = async (words: readonly string[]): Promise<string[]> => (await heldCounts(words)).map(([word]) => word);
  /** Of these words, the one the most memories hold (`usable`), alone; none if none is. */
  const mostHeld = async (words: readonly string[]): Promise<string[]> =>
    (await heldCounts(words))
      .sort((a, b) => b[1] - a[1])
      .slice(0, 1)
      .map(([word]) => word);
  /** Up to `most` of these words that are `usable`, in their order, one of each stem (`oneOfEachStem`). */
  const matching = async (words: readonly string[]): Promise<string[]> =>
    oneOfEachStem(await usable(words.filter((word) => !query.terms.includes(word)))).slice(0, most);
  // The query's words some memory holds, names' too, each with its verb forms.
  const held = query.terms.filter((term) => !unmatched.has(term)).map(asked);
  /**
   * Up to `most` of these words that some memory holds beside every word of the query that matches (`held`), in
   * their order: a later sense's word must fit what else the query says ("washed" → clean where an old lantern at the
   * park was cleaned, not work, its noun senses' word, which memories of jobs hold). The words the workspace holds at
   * all (`usable`) are found first, and only those counted beside the others: of a list of 24 narrower words a
   * workspace holds a few, and counting each of the 24 beside the query's words had cost a million's first questions
   * 0.3–2.5 ms at p50 (src/core/recall/README.md, "A thesaurus of associations").
   */
  const fitting = async (words: readonly string[]): Promise<string[]> => {
    const candidates = words.filter((word) => !query.terms.includes(word));
    if (candidates.length === 0 || held.length === 0) return [];
    const present = await usable(candidates);
    if (present.length === 0) return [];
    const together = await matchCounts.matchCounts(
      workspaceId,
      present.map((word) => [synonymForms(word), ...held]),
      MAX_SCORED_MATCHES,
    );
    return oneOfEachStem(present.filter((_, i) => together[i]! > 0)).slice(0, most);
  };
  /**
   * What the workspace holds for a word or phrase matching nothing: a word of its family by a regular suffix
   * ("decisions" → decide, "deploy" → deployment: text/derivations.ts), the same meaning said as another part of
   * speech; else its synonyms that match; where none does, its broader words ("kayak" matching nothing is asked as
   * canoe, a kind it is); where none of those does either, its narrower words ("coat" as jacket, a kind of coat),
   * both only where they fit the query's other words (`fitting`), if it has any that match; then the words of its
   * later senses that fit them; then the words a thesaurus of associations relates to it that fit them ("torch" →
   * lantern, "quilt" → blanket, which WordNet does not relate); last, the words used most like it that fit them
   * ("pendant" → necklace). A thesaurus's relation before a word merely used alike: those are as often of a kind
   * beside it.
   */
  // A broader or narrower word names another thing than the word (its kind, or a kind of it), and where the query
  // says something else it must fit that too: "packaged" → collection, the broader word of a package, is a word of
  // every memory of stamp collecting, none of them of a yellow lantern at the market.
  const fittingIfAnyHeld = held.length > 0 ? fitting : matching;
  /** Each place to look, in its order, with how what it gives is checked. */
  const lookups: ReadonlyArray<
    readonly [related: (word: string) => readonly string[], check: (words: readonly string[]) => Promise<string[]>]
  > = [
    [familyOf, matching],
    [synonymsOf, matching],
    [broaderOf, fittingIfAnyHeld],
    [narrowerOf, fittingIfAnyHeld],
    [laterSensesOf, fitting],
    [relatedTo, fitting],
    [usedAlikeAs, fitting],
  ];
  const kept = async (word: string): Promise<string[]> => {
    if (most <= 0) return [];
    for (const [related, check] of lookups) {
      const found = await check(related(word));
      if (found.length > 0) return found;
    }
    return [];
  };
  const searched = new Map<string, string[]>();
  // A phrase whose every word matches nothing ("try out", "looking glass") is asked as a whole, for each of its
  // words: its meaning is not its words' ("try" alone → attempt). So where nothing is found for the phrase, its
  // words are not asked alone either ("parted with": "part" alone → split, a city).
  const whole = phrases.filter((phrase) => phrase.terms.every((term) => unmatched.has(term)));
  const inPhrase = new Set(whole.flatMap((phrase) => phrase.terms));
  // Of words side by side that all match nothing and are no phrase of the table ("water boiler", "shoulder bag"),
  // only the last is asked alone: an English compound is a kind of its last word, the words before say which kind,
  // and asked alone they bring their own company ("water" → clean, a word used like it). Only where the table holds
  // that last word: before a word it does not hold (a name of a product, "pick postgres") the word is no modifier of
  // anything the table could relate, and left out it would leave the query nothing to search in its place.
  const modifiers = new Set(
    query.said
      .slice(0, -1)
      .filter((word, i) => unmatched.has(word) && unmatched.has(query.said[i + 1]!) && inThesaurus(query.said[i + 1]!)),
  );
  // An acronym is asked as what it stands for, not as the thesaurus's word it spells ("CI" is no curie).
  const spelledOut = [...unmatched].filter((term) => acronyms.has(term));
  // A light verb before a noun ("took a picture of") is searched as nothing: the noun says what was done.
  const light = lightVerbsBeforeNouns(query.said);
  const alone = [...unmatched].filter(
    (term) =>
      !light.has(term) &&
      !inPhrase.has(term) &&
      !modifiers.has(term) &&
      !acronyms.has(term) &&
      (inThesaurus(term) || derivationsOf(term).length > 0),
  );
  // A word matching nothing beside another (`pairs`) is the joined word where some memory holds it: the same word, not
  // a related one, so it is what that word is searched as, before anything the table gives.
  const joins = pairs.flatMap(({ words, joined }) =>
    words.filter((term) => unmatched.has(term)).map((term) => ({ term, joined })),
  );
  // An acronym's expansion the query spells out, every word of it matching nothing ("single sign-on"), is searched as
  // the acronym where a memory holds it ("SSO through Okta"): the same thing, written short. Before anything the table
  // gives its words, as a joined word is.
  const spellings = acronymsSpelledIn(query.said).flatMap(({ acronym, start, length }) => {
    const terms = query.terms.filter((term) => query.said.slice(start, start + length).includes(term));
    return terms.length > 0 && terms.every((term) => unmatched.has(term)) ? [{ acronym, terms }] : [];
  });
  // A word that the workspace does not hold and that is no word of the thesaurus is as often misspelt ("educaton",
  // "funraiser"): it is searched as the word one slip away that the most memories hold (text/spelling.ts), where
  // nothing else is found.
  const misspelt = [...unmatched]
    .filter((term) => !acronyms.has(term) && !spelledAsKnown(term))
    .slice(0, MOST_MISSPELT);
  // Phrases, lone words and joined words are looked up side by side: which words go alone does not depend on what
  // the others find, and each lookup is a chain of counts (up to twelve) that every arm waits for.
  const [byPhrase, byTerm, bySlip, joinedHeld, bySpelling, acronymsHeld] = await Promise.all([
    Promise.all(whole.map((phrase) => kept(phrase.phrase))),
    Promise.all(alone.map(kept)),
    Promise.all(misspelt.map((term) => (most > 0 ? mostHeld(spellingsNear(term)) : Promise.resolve<string[]>([])))),
    most > 0 ? usable([...new Set(joins.map(({ joined }) => joined))]) : Promise.resolve<string[]>([]),
    Promise.all(spelledOut.map(async (term) => (most > 0 ? (await usable(expansionsOf(term))).slice(0, most) : []))),
    most > 0 ? usable([...new Set(spellings.map(({ acronym }) => acronym))]) : Promise.resolve<string[]>([]),
  ]);
  whole.forEach((phrase, i) => {
    if (byPhrase[i]!.length > 0) for (const term of phrase.terms) searched.set(term, byPhrase[i]!);
  });
  alone.forEach((term, i) => {
    if (byTerm[i]!.length > 0) searched.set(term, byTerm[i]!);
  });
  // Words found together share one list (`standingForOneWordEach`): both words of a pair its joined word.
  const joinedAs = new Map(joinedHeld.map((joined) => [joined, [joined]]));
  for (const { term, joined } of joins) {
    const shared = joinedAs.get(joined);
    if (shared) searched.set(term, shared);
  }
  for (const { acronym, terms } of spellings) {
    if (!acronymsHeld.includes(acronym)) continue;
    const asAcronym = [acronym];
    for (const term of terms) searched.set(term, asAcronym);
  }
  spelledOut.forEach((term, i) => {
    if (bySpelling[i]!.length > 0) searched.set(term, bySpelling[i]!);
  });
  // Last, where nothing else was found for it: a word of its family or a joined word is what was written.
  misspelt.forEach((term, i) => {
    if (!searched.has(term) && bySlip[i]!.length > 0) searched.set(term, bySlip[i]!);
  });
  standingForOneWordEach(searched, query.terms);
  // Words that match nothing and found nothing in their place: no memory holds them.
  const absent = new Set([...unmatched].filter((term) => !searched.has(term)));
  if (searched.size === 0 && joinedForms.size === 0) return { ...query, absent };
  const termForms = new Map(query.termForms);
  const synonyms = new Map<string, string[]>();
  for (const term of query.terms) {
    const words = searched.get(term);
    const joined = joinedForms.get(term) ?? [];
    if (!words && joined.length === 0) continue;
    termForms.set(term, [
      ...new Set([...(termForms.get(term) ?? []), ...(words ?? []).flatMap(synonymForms), ...joined]),
    ]);
    if (words) synonyms.set(term, words);
  }
  return { ...query, termForms, synonyms, absent };
}

/**
 * Words of a word's family (text/derivations.ts), one a Porter stem: "decide" and "decid" are one word to the keyword
 * index, which stems as Porter does.
 */
function familyOf(word: string): string[] {
  return oneOfEachStem(derivationsOf(word));
}

/**
 * The first of these words of each Porter stem. The keyword index stems (FTS5's Porter on SQLite, Snowball's English,
 * Porter's successor, on PostgreSQL), so "bake" and "baking", or "run" and "running", are one word to it: taken as
 * two of the `most` stand-ins for a word, they left no place for another that says something else ("oven" → bake,
 * baking, where the next word used like it that fits is stove).
 */
function oneOfEachStem(words: readonly string[]): string[] {
  const stems = new Set<string>();
  return words.filter((word) => {
    const stem = stemmer(word);
    if (stems.has(stem)) return false;
    stems.add(stem);
    return true;
  });
}

/**
 * Leaves each word searched in place of another to the first of the query's words it was found for (`terms` in the
 * query's order; by Porter stem): two words of the query searched as one ("Who coloured a fragile coat?": colour →
 * paint, a kind of colouring, and coat → jacket, paint, a coat of paint) made every memory that painted something as
 * good an answer as the one that painted a jacket. Words found together share one list and keep it: a phrase's words
 * what was found for the phrase, two words side by side the word they join into, an acronym's expansion the acronym.
 * A word left with nothing in its place is dropped from `searched`.
 */
function standingForOneWordEach(searched: Map<string, string[]>, terms: readonly string[]): void {
  const foundFor = new Map<string, readonly string[]>();
  for (const term of terms) {
    const words = searched.get(term);
    if (!words) continue;
    const kept = words.filter((word) => {
      const stem = stemmer(word);
      if ((foundFor.get(stem) ?? words) !== words) return false;
      foundFor.set(stem, words);
      return true;
    });
    if (kept.length === 0) searched.delete(term);
    else if (kept.length < words.length) searched.set(term, kept);
  }
}

/** A name that is an acronym of the table: one word in capitals, or with a digit ("CI", "SSO", "K8s", "2FA"). */
const isAcronym = (entity: string): boolean =>
  /^(?:[A-Z][A-Z0-9]{1,4}|[A-Za-z0-9]*\d[A-Za-z0-9]*)$/.test(entity) && expansionsOf(entity.toLowerCase()).length > 0;

/**
 * An acronym of the table in lower case that no word or unit spells: with a digit ("k8s", "2fa"), or of three letters
 * or more ("api", "sso"). Two letters in lower case are as often a unit or a word ("200 ml", "1 hr", "3 pm", "is
 * the pr ready": left as written).
 */
const isLowerCaseAcronym = (term: string): boolean =>
  /^(?:[a-z0-9]*\d[a-z0-9]*|[a-z]{3,})$/.test(term) && expansionsOf(term).length > 0;

/**
 * Words of one query looked up as misspelt, the first ones: a typed question rarely holds more slips, and a query
 * with dozens of words nothing holds is no typed prose (a pasted log line, code), where each lookup costs time (40
 * such words of seven letters: engine p50 41 → 53 ms, a throwaway probe) and a guess finds only noise.
 */
const MOST_MISSPELT = 3;

/** Two words joined as one word (letters only, as a word of the table is): "log" and "in" as login. */
const JOINABLE = /^[a-z]{4,30}$/;

/**
 * A word searched in place of another may be held by at most this share of the workspace's memories: BM25 weighs such
 * a word near nothing, and as an alternative form of the word it replaces it makes every memory holding it look as if
 * it held that word.
 */
const COMMON_SHARE = 0.1;

/** A phrase of the table among the query's words, with the query's terms it holds. */
interface AskedPhrase {
  phrase: string;
  terms: string[];
}

/**
 * The phrases of the table the query says (text/synonyms.ts `phrasesIn`), with their words that are terms of the
 * query; none holding a word of a name or a date the query names, none without a term ("out of" has none).
 */
function askedPhrases(query: ProcessedQuery, fixed: ReadonlySet<string>): AskedPhrase[] {
  return phrasesIn(query.said).flatMap(({ start, length, phrase }) => {
    const inPhrase = query.said.slice(start, start + length);
    if (inPhrase.some((word) => fixed.has(word))) return [];
    const terms = query.terms.filter((term) => inPhrase.includes(term));
    return terms.length > 0 ? [{ phrase, terms }] : [];
  });
}

/**
 * Above this share of the query's keyword weight (`namesShare`), the names it asks about are most of what it says.
 * Measured, not fitted: the scale corpus's paraphrases at a million memories sit at 0.63-0.77, the questions of the
 * LoCoMo dev conversations that get synonyms at 0.41 or below (their names are speakers, in half the turns).
 */
const NAMES_DOMINATE = 0.5;

/**
 * The `synonym` ranking feature of a recall (ranking.ts): for a memory of someone the query names (it holds every
 * word of one of the names), the share of the query's words that match nothing in the workspace whose synonyms it
 * holds (`withSynonymsForUnmatched`), where those names carry over half of the query's keyword weight; 0 for every
 * other memory, and for every memory of a query with no synonyms searched or no such name.
 *
 * Where a name is in a hundred memories (a person among a million), each of them holds the name, which is most of the
 * query's evidence; BM25's length normalisation and vector similarity then put the person's shortest memories first,
 * and the one asked about ("When did Teodor Yamada keep a couch?" → "On 10 June 2018, Teodor Yamada stored a
 * antique sofa …") is told apart only by the synonym it holds. Where names weigh little (LoCoMo's speakers) the
 * query's other words decide as before: there a word matching nothing is as often a typo or a rare word whose
 * thesaurus synonym is off ("father" → get, "desert" → leave), and without the condition on names this feature cost a
 * LoCoMo question in every form measured (src/core/recall/README.md, "The synonym a memory of the person holds").
 */
export function heldSynonyms(query: ProcessedQuery, evidence: KeywordEvidence): (text: string) => number {
  if (query.synonyms.size === 0 || namesShare(evidence, query.entities) <= NAMES_DOMINATE) return () => 0;
  const holdsSynonyms = termCoverage([...query.synonyms.keys()], query.termForms);
  const holdsName = query.entities.map((entity) => termCoverage(tokens(entity)));
  return (text) => (holdsName.some((held) => held(text) === 1) ? holdsSynonyms(text) : 0);
}

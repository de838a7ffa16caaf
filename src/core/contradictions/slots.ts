import { splitSentences, words } from '../text/index.js';
import { keepRecentResults, RECENT_TEXTS } from '../text/recent.js';
import { contentWords } from '../text/stopwords.js';

/**
 * A single-valued attribute a statement sets: "I live in Paris" sets (self, residence) to "paris". Two statements
 * setting the same attribute of the same subject to different values cannot both be true now.
 */
export interface Slot {
  subject: string;
  attribute: string;
  value: string;
  /**
   * `strong`: the attribute has one value at a time (residence, employer, a favourite, a deadline, an opinion of
   * one thing). `weak`: usually one value, but only within a topic the words do not pin down ("prefers X").
   */
  strength: 'strong' | 'weak';
}

/** Names: capitalised words, allowing "Rio de Janeiro" and "New York City" (but not "Berlin I"). */
const NAME = String.raw`[A-Z][\w'.-]*(?:\s+(?:(?:de|da|del|of|upon)\s+)?[A-Z][\w'.-]+)*`;
/**
 * Whoever a statement is about: I/we, a name, or a short definite description ("my sister", "the team"). Third-person
 * pronouns are left out: "his" in one memory and "his" in another are rarely the same person.
 */
const SUBJECT = String.raw`I|[Ww]e|(?:[Tt]he|[Mm]y|[Oo]ur)\s+[a-z][\w-]*|${NAME}`;
/** Whose attribute: mine, ours, the thing's, a name's, or a described one's ("the user's", "my sister's"). */
const POSSESSOR = `(?:[Tt]he|[Mm]y|[Oo]ur)\\s+[a-z][\\w-]*['’]s|[Mm]y|[Oo]ur|[Tt]he|(?:${NAME})['’]s`;
/**
 * A free value runs to the end of its clause; `clauseValue` trims it further. A full stop within a word does not end
 * it: "ana.berg@example.org", "version 2.3.1".
 */
const FREE = String.raw`(?:[^,.;!?]|\.(?=[\w@]))+`;
const SINGLE_VALUED = [
  'deadline',
  'due date',
  'release date',
  'launch date',
  'start date',
  'end date',
  'name',
  'birthday',
  'address',
  'email',
  'phone number',
  'capital',
  'price',
  'cost',
  'budget',
  'salary',
  'age',
  'owner',
  'manager',
  'lead',
  'boss',
  'port',
  'version',
  'timezone',
  'time zone',
  'status',
  'meeting',
  'appointment',
  'flight',
  'goal',
].join('|');

/** Roles one person holds at a time, named after the person: "Tomasz is the on-call engineer this week". */
const ROLES = [
  'owner',
  'manager',
  'lead',
  'boss',
  'on-call engineer',
  'on-call',
  'on call',
  'point of contact',
  'contact',
  'maintainer',
].join('|');
/** Who a role's holder cannot be told apart from a person by: "He is the manager", "This is the owner's call". */
const NOT_A_HOLDER = new Set(['he', 'she', 'it', 'this', 'that', 'they', 'there', 'here', 'who', 'which', 'what']);

interface Pattern {
  attribute: string | ((groups: Record<string, string>) => string);
  strength: Slot['strength'];
  regex: RegExp;
  /** The value from the match (default: the `value` group). */
  value?: (groups: Record<string, string>) => string;
  /** The subject from the match (default: the `subject` group). */
  subject?: (groups: Record<string, string>) => string;
}

/** The attribute an opinion sets opens with this, the thing it is of after it. */
export const OPINION_OF = 'opinion of ';
const POSITIVE = new Set(['love', 'loves', 'like', 'likes', 'enjoy', 'enjoys', 'adore', 'adores']);

/** Current-tense forms only: "I lived in Paris" is history and does not conflict with "I live in Berlin". */
const PATTERNS: Pattern[] = [
  {
    attribute: 'residence',
    strength: 'strong',
    regex: new RegExp(
      String.raw`(?<subject>${SUBJECT})\s+(?:now\s+|currently\s+|still\s+)?(?:live|lives|am living|is living|are living|reside|resides|am based|is based|are based|stay|stays)\s+in\s+(?<value>${NAME})`,
      'g',
    ),
  },
  {
    attribute: 'residence',
    strength: 'strong',
    regex: new RegExp(
      String.raw`(?<subject>${SUBJECT})\s+(?:just\s+|recently\s+)?(?:moved|relocated|have moved|has moved|am moving|is moving|are moving|am relocating|is relocating)\s+(?:back\s+)?to\s+(?<value>${NAME})`,
      'g',
    ),
  },
  {
    // Where a thing is, said of it by a definite description: "The office is in Berlin." / "The office moved to
    // Munich." (the pattern above). Not of a person: "Ana is in Paris" is where she is this week, not where she lives.
    attribute: 'residence',
    strength: 'strong',
    regex: new RegExp(
      String.raw`(?<subject>(?:[Tt]he|[Oo]ur)\s+[a-z][\w-]*)\s+(?:is|are)\s+(?:now\s+|still\s+)?(?:located\s+)?in\s+(?<value>${NAME})`,
      'g',
    ),
  },
  {
    attribute: 'residence',
    strength: 'strong',
    regex: new RegExp(
      String.raw`(?<value>${NAME})\s+is\s+where\s+(?<subject>${SUBJECT})\s+(?:live|lives|reside|resides|am based|is based|are based)\b`,
      'g',
    ),
  },
  {
    attribute: 'origin',
    strength: 'strong',
    regex: new RegExp(
      String.raw`(?<subject>${SUBJECT})\s+(?:am|is|are|come|comes)\s+(?:originally\s+)?from\s+(?<value>${NAME})`,
      'g',
    ),
  },
  {
    attribute: 'employer',
    strength: 'strong',
    regex: new RegExp(
      String.raw`(?<subject>${SUBJECT})\s+(?:now\s+|currently\s+)?(?:work|works|am working|is working|are working)\s+(?:at|for)\s+(?<value>${NAME})`,
      'g',
    ),
  },
  {
    attribute: 'employer',
    strength: 'strong',
    regex: new RegExp(
      String.raw`(?<subject>${SUBJECT})\s+(?:just\s+)?(?:joined|has joined|have joined)\s+(?<value>${NAME})`,
      'g',
    ),
  },
  {
    attribute: (g) => `favourite ${g.attr}`,
    strength: 'strong',
    regex: new RegExp(
      String.raw`(?<subject>${POSSESSOR})\s+favou?rite\s+(?<attr>[a-z]+(?:\s[a-z]+)?)\s+(?:is|are)\s+(?:now\s+)?(?<value>${FREE})`,
      'g',
    ),
  },
  {
    attribute: (g) => g.attr!,
    strength: 'strong',
    regex: new RegExp(
      String.raw`(?<subject>${POSSESSOR})\s+(?<attr>(?:[a-z]+\s){0,2}(?:${SINGLE_VALUED}))\s+(?:is|are|will be|has moved to|moved to)\s+(?:now\s+|still\s+)?(?<value>${FREE})`,
      'g',
    ),
  },
  {
    // The role is the subject, its holder the value: "Tomasz is the on-call engineer" / "Ana is the on-call
    // engineer" cannot both hold now, "Ana is the lead of the mobile team" / "Bob is the lead of the web team" can.
    attribute: 'holder',
    strength: 'strong',
    regex: new RegExp(
      String.raw`(?<holder>${NAME})\s+is\s+(?:now\s+|currently\s+|still\s+)?(?:the|our)\s+(?<role>(?:[a-z-]+\s){0,2}(?:${ROLES}))(?:\s+(?:of|for|at)\s+(?<of>[^,.;!?]+))?`,
      'g',
    ),
    value: roleHolder,
    subject: heldRole,
  },
  {
    // The same said the other way round, the holder last: "Our contact at Acme is Jonas Berg." / "Our new contact at
    // Acme is Pia Lund, since Jonas left." A "new" or "current" holder holds the same role. The speaker's own ("My
    // manager is Priya." / "My new manager is Tom.") is a role of its own, not the team's manager.
    attribute: 'holder',
    strength: 'strong',
    regex: new RegExp(
      String.raw`\b(?:[Tt]he|[Oo]ur|(?<mine>[Mm]y))\s+(?:new\s+|current\s+)?(?<role>${ROLES})(?:\s+(?:of|for|at)\s+(?<of>[^,.;!?]+?))?\s+is\s+(?:now\s+)?(?<holder>${NAME})`,
      'g',
    ),
    value: roleHolder,
    subject: heldRole,
  },
  {
    attribute: (g) => `${OPINION_OF}${clauseValue(g.value!)}`,
    strength: 'strong',
    regex: new RegExp(
      String.raw`(?<subject>${SUBJECT})\s+(?:really\s+|truly\s+)?(?<verb>loves?|likes?|enjoys?|adores?|hates?|dislikes?|detests?|can't stand|cannot stand|(?<not>(?:does|do|did)(?:\s+not|n['’]t)|never)\s+(?:really\s+)?(?:loved?|loves|liked?|likes|enjoy(?:s|ed)?|adored?|adores))\s+(?<value>${FREE})`,
      'g',
    ),
    // "doesn't like" is an opinion as "dislikes" is: "Maya hates jazz." and "Maya doesn't like jazz." agree.
    value: (g) => (g.not === undefined && POSITIVE.has(g.verb!) ? 'positive' : 'negative'),
  },
  {
    attribute: 'preference',
    strength: 'weak',
    regex: new RegExp(
      String.raw`(?<subject>${SUBJECT})\s+(?:now\s+|still\s+)?(?:prefers?|preferred)\s+(?<value>${FREE})`,
      'g',
    ),
  },
];

const FIRST_PERSON = new Set(['i', 'my', 'user', 'the user']);
/** Capitalised because they open the sentence, not because they are names: "Then Ana moved to Rome". */
const SENTENCE_OPENERS = new Set([
  'then',
  'now',
  'so',
  'also',
  'today',
  'yesterday',
  'recently',
  'finally',
  'and',
  'but',
  'meanwhile',
  'currently',
]);
const CLAUSE_END = new Set([
  'and',
  'but',
  'because',
  'since',
  'for',
  'with',
  'when',
  'while',
  'over',
  'than',
  'instead',
  'rather',
  'at',
  'in',
  'on',
  'during',
  'until',
  'from',
  'to',
  'so',
]);
const LEADING = new Set(['the', 'a', 'an', 'now', 'currently', 'still', 'on']);
const MAX_VALUE_WORDS = 5;

/** "the user" and "I" are the same person in an agent's memory; "Ana's" is Ana. */
function subjectKey(raw: string): string {
  const lower = withoutOpener(raw.replace(/['’]s$/, ''));
  if (FIRST_PERSON.has(lower)) return 'self';
  if (lower === 'our') return 'we';
  return lower;
}

/** Of something said with "a" ("the owner of a small bakery") the role is not one: two people each own one. */
function roleHolder(g: Record<string, string>): string {
  return /^an?\s/i.test(g.of ?? '') ? '' : holderOf(g.holder!);
}

/**
 * A role with what it is of ("lead of mobile team"): two teams' leads are two roles, and the speaker's ("my manager")
 * one more.
 */
function heldRole(g: Record<string, string>): string {
  const role = g.mine ? `my ${g.role}` : g.role!;
  return g.of ? `${role} of ${clauseValue(g.of)}` : role;
}

/** The person named as a role's holder, without the word that opens the sentence ("Then Sam"); none for a pronoun. */
function holderOf(raw: string): string {
  // A name may hold dots ("J. Berg"); one that ends the sentence is not its.
  const holder = withoutOpener(raw.replace(/\.+$/, ''));
  return NOT_A_HOLDER.has(holder) ? '' : holder;
}

/** A name or description in lower case, without a word that only opens the sentence ("Then Ana" is Ana). */
function withoutOpener(raw: string): string {
  const parts = raw.toLowerCase().split(/\s+/);
  while (parts.length > 1 && SENTENCE_OPENERS.has(parts[0]!)) parts.shift();
  return parts.join(' ');
}

/** The value words of a clause: up to the first word that starts another clause, without leading articles. */
function clauseValue(raw: string): string {
  const kept: string[] = [];
  for (const word of words(raw)) {
    if (kept.length > 0 && CLAUSE_END.has(word)) break;
    if (kept.length === 0 && LEADING.has(word)) continue;
    kept.push(word.replace(/^(\d+)(?:st|nd|rd|th)$/, '$1'));
    if (kept.length === MAX_VALUE_WORDS) break;
  }
  return kept.join(' ');
}

/** Contractions the patterns would otherwise miss. */
const expand = (sentence: string): string => sentence.replace(/\bI'm\b/g, 'I am').replace(/\b([Ww]e)'re\b/g, '$1 are');

/** The slots of a text, kept for recently seen texts (a memory is compared with each of its neighbours). */
export const extractSlots: (text: string) => readonly Slot[] = keepRecentResults(slotsOf, RECENT_TEXTS);

function slotsOf(text: string): readonly Slot[] {
  const slots: Slot[] = [];
  for (const sentence of splitSentences(text).map(expand)) {
    for (const pattern of PATTERNS) {
      for (const match of sentence.matchAll(pattern.regex)) {
        const groups = match.groups as Record<string, string>;
        const value = pattern.value ? pattern.value(groups) : clauseValue(groups.value!);
        const attribute = typeof pattern.attribute === 'string' ? pattern.attribute : pattern.attribute(groups);
        if (value && attribute)
          slots.push({
            subject: subjectKey(pattern.subject ? pattern.subject(groups) : groups.subject!),
            attribute,
            value,
            strength: pattern.strength,
          });
      }
    }
  }
  return slots;
}

/** Values disagree when neither names the other: "Paris" and "Paris, France" agree; "Paris" and "Berlin" do not. */
export function valuesDisagree(a: string, b: string): boolean {
  const wordsA = new Set(contentWords(a.split(' ')));
  const wordsB = new Set(contentWords(b.split(' ')));
  if (wordsA.size === 0 || wordsB.size === 0) return a !== b;
  const within = (small: Set<string>, large: Set<string>) => [...small].every((w) => large.has(w));
  return !within(wordsA, wordsB) && !within(wordsB, wordsA);
}

/** Pairs of slots, one from each text, that set the same attribute of the same subject to different values. */
export function slotConflicts(a: readonly Slot[], b: readonly Slot[]): Array<[Slot, Slot]> {
  const conflicts: Array<[Slot, Slot]> = [];
  for (const x of a) {
    for (const y of b) {
      if (x.subject === y.subject && x.attribute === y.attribute && valuesDisagree(x.value, y.value))
        conflicts.push([x, y]);
    }
  }
  return conflicts;
}

/**
 * Words of one family, a noun made from a verb and the verb it is made from: "decisions" asked where the notes say
 * "we decided", "deploy" asked where they say "the deployment". The stemmer relates neither ("decis" / "decid",
 * "deploy" / "deploy" + "ment"), and WordNet's first sense of "decision" gave "move", a word of chess. By the regular
 * English suffixes only, so some candidates are no word ("installate"): a candidate is searched only where a memory
 * of the workspace holds it (unmatched.ts), and a word that is none holds nothing. Suffixes whose stripped words are
 * too often other words ("corner" → corn, "number" → numb: -er) are left out.
 */

/** Noun suffix → the verb endings that may replace it ("decision" → decide, "extension" → extend). */
const NOUN_TO_VERB: ReadonlyArray<[RegExp, readonly string[]]> = [
  [/ation$/, ['', 'e', 'ate']], // installation → install, configuration → configure, automation → automate
  [/sion$/, ['de', 'd']], // decision → decide, extension → extend
  [/tion$/, ['te']], // completion → complete, deletion → delete
  [/ment$/, ['']], // deployment → deploy, agreement → agree
  [/(?<=[vws])al$/, ['', 'e']], // renewal → renew, approval → approve, proposal → propose
  [/ance$/, ['']], // performance → perform, acceptance → accept
];

/** Verb ending → the noun endings that may replace it ("decide" → decision, "deploy" → deployment). */
const VERB_TO_NOUN: ReadonlyArray<[RegExp, readonly string[]]> = [
  [/de$/, ['sion']], // decide → decision
  [/te$/, ['tion']], // migrate → migration
  [/(?<=[^dt])e$/, ['ation', 'al']], // configure → configuration, approve → approval
  [/(?<=[^e])$/, ['ment', 'ation', 'ance']], // deploy → deployment, install → installation, perform → performance
  [/(?<=w)$/, ['al']], // renew → renewal
];

/** A noun made from a verb by one of NOUN_TO_VERB's suffixes: only the verb is looked for. */
const NOUN = /(?:ion|ment|ance|[vws]al)$/;

/** A term's bases: itself, and without a plural's or a past or present participle's ending ("decisions", "migrated"). */
function basesOf(term: string): string[] {
  const bases = [term];
  if (/[^s]s$/.test(term)) bases.push(term.slice(0, -1));
  if (/ed$/.test(term)) bases.push(term.slice(0, -2), term.slice(0, -1)); // deployed → deploy, migrated → migrate
  if (/ing$/.test(term)) bases.push(term.slice(0, -3), `${term.slice(0, -3)}e`); // deploying → deploy, migrating → migrate
  return bases;
}

/** Other words of the term's family by regular suffixes, some of them no word; none for a short word. */
export function derivationsOf(term: string): string[] {
  if (term.length < 5 || !/^[a-z]+$/.test(term)) return [];
  const found = new Set<string>();
  const bases = basesOf(term);
  for (const base of bases) {
    // An inflected form ("decisions", "deployed") is looked at through its bases only, as a noun or a verb.
    const rules = NOUN.test(base) ? NOUN_TO_VERB : base === term && bases.length > 1 ? [] : VERB_TO_NOUN;
    for (const [ending, replacements] of rules) {
      const match = ending.exec(base);
      if (!match) continue;
      const stem = base.slice(0, match.index);
      if (stem.length < 3) continue;
      for (const replacement of replacements) found.add(stem + replacement);
    }
  }
  return [...found].filter((word) => !bases.includes(word));
}

/**
 * Words of one family, a noun made from a verb and the verb it is made from, where the keyword index's Porter stemmer
 * does not relate them: "decisions" asked where the notes say "we decided" (decis / decid), "deploy" asked where they
 * say "the deployment" (deploi / deploy), "describe" and "the description". Pairs it does relate ("migrate" /
 * "migration", "approve" / "approval", "install" / "installation") need nothing here. WordNet's first sense of
 * "decision" gave "move", a word of chess. By regular English suffixes only, so some candidates are no word
 * ("signalment"): a candidate is searched only where a memory of the workspace holds it (unmatched.ts), and a word that
 * is none holds nothing.
 */

/** Noun ending → the verb endings that may replace it ("decision" → decide, "extension" → extend). */
const NOUN_TO_VERB: ReadonlyArray<[RegExp, readonly string[]]> = [
  [/ssion$/, ['t']], // permission → permit, submission → submit
  [/(?<!s)sion$/, ['de', 'd']], // decision → decide, extension → extend, expansion → expand
  [/ption$/, ['be', 'e']], // description → describe, assumption → assume
  [/ution$/, ['ve']], // solution → solve, resolution → resolve
  [/anation$/, ['ain']], // explanation → explain
  [/enance$/, ['ain']], // maintenance → maintain
  [/ment$/, ['']], // deployment → deploy, agreement → agree
];

/** Verb ending → the noun endings that may replace it ("decide" → decision, "deploy" → deployment). */
const VERB_TO_NOUN: ReadonlyArray<[RegExp, readonly string[]]> = [
  [/de$/, ['sion']], // decide → decision
  [/(?<=[nd])d$/, ['sion']], // extend → extension, expand → expansion
  [/mit$/, ['mission']], // permit → permission
  [/be$/, ['ption']], // describe → description
  [/ume$/, ['umption']], // assume → assumption
  [/lve$/, ['lution']], // solve → solution
  [/ain$/, ['anation', 'enance']], // explain → explanation, maintain → maintenance
  [/$/, ['ment']], // deploy → deployment, agree → agreement
];

/** A noun made from a verb by one of NOUN_TO_VERB's endings: only the verb is looked for. */
const NOUN = /(?:sion|tion|ment|ance)$/;

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

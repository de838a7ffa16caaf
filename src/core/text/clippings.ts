/**
 * Words of work written short, with the words they are short for: an agent's notes say "the production database is
 * backed up nightly" and its user asks "how often is the prod db backed up?", or "when does the cert expire?" of
 * "renew the TLS certificate before March 14". The stemmer relates neither pair ("cert" / "certif"), nor does the
 * thesaurus (WordNet knows no "prod"). Each is the other's form, both ways: a query says either and a memory the other.
 * Only clippings whose sense at work is the only one likely in an agent's memory ("doc" is as often a doctor: not here).
 */
const CLIPPINGS: Readonly<Record<string, readonly string[]>> = {
  admin: ['administrator', 'administration'],
  app: ['application'],
  auth: ['authentication', 'authorization'],
  cert: ['certificate'],
  config: ['configuration'],
  db: ['database'],
  dep: ['dependency'],
  deps: ['dependencies'],
  dev: ['development', 'developer'],
  docs: ['documentation'],
  env: ['environment'],
  info: ['information'],
  infra: ['infrastructure'],
  ops: ['operations'],
  perf: ['performance'],
  prod: ['production'],
  repo: ['repository'],
  spec: ['specification'],
};

const FULL_WORDS: ReadonlyMap<string, readonly string[]> = (() => {
  const short = new Map<string, string[]>();
  for (const [clipping, words] of Object.entries(CLIPPINGS))
    for (const word of words) short.set(word, [...(short.get(word) ?? []), clipping]);
  return short;
})();

/** A word's other forms as a clipping or what it clips ("cert" → certificate, "production" → prod; "certs" too). */
export function clippingForms(word: string): readonly string[] {
  const direct = CLIPPINGS[word] ?? FULL_WORDS.get(word);
  if (direct) return direct;
  // A plural: "certs", "repositories" ask for the plural of the other form ("certificates", "repos").
  for (const singular of singularsOf(word)) {
    const forms = CLIPPINGS[singular] ?? FULL_WORDS.get(singular);
    if (forms) return forms.map(pluralOf);
  }
  return [];
}

const singularsOf = (word: string): string[] =>
  word.endsWith('ies') ? [`${word.slice(0, -3)}y`] : word.endsWith('s') ? [word.slice(0, -1)] : [];

const pluralOf = (word: string): string => (/[^aeiou]y$/.test(word) ? `${word.slice(0, -1)}ies` : `${word}s`);

/**
 * Acronyms of software and team work with what they stand for: an agent's notes say "Continuous integration runs on
 * GitHub Actions" and its user asks "what do we use for CI?", or the other way round. WordNet, where the thesaurus
 * comes from (synonyms.ts), holds none of these pairs. Only acronyms a team writes in capitals, and only their common
 * sense at work ("PR" is a pull request here, not public relations); recall searches an expansion only where the
 * acronym matches no memory of the workspace and the expansion does (unmatched.ts). "DB" is a clipping, both ways
 * (clippings.ts).
 */
const ACRONYMS: Readonly<Record<string, readonly string[]>> = {
  ai: ['artificial intelligence'],
  api: ['application programming interface'],
  ci: ['continuous integration'],
  cd: ['continuous delivery', 'continuous deployment'],
  cdn: ['content delivery network'],
  cli: ['command line interface', 'command line'],
  crm: ['customer relationship management'],
  dns: ['domain name system'],
  eod: ['end of day'],
  eta: ['estimated time of arrival'],
  etl: ['extract transform load'],
  faq: ['frequently asked questions'],
  hr: ['human resources'],
  iam: ['identity and access management'],
  ide: ['integrated development environment'],
  k8s: ['kubernetes'],
  kpi: ['key performance indicator'],
  llm: ['large language model', 'language model'],
  mfa: ['multi-factor authentication', 'two-factor authentication'],
  ml: ['machine learning'],
  mvp: ['minimum viable product'],
  nda: ['non-disclosure agreement'],
  okr: ['objectives and key results'],
  ooo: ['out of office'],
  orm: ['object relational mapping', 'object relational mapper'],
  os: ['operating system'],
  pm: ['product manager', 'project manager'],
  pr: ['pull request'],
  pto: ['paid time off'],
  qa: ['quality assurance'],
  rbac: ['role based access control'],
  roi: ['return on investment'],
  saas: ['software as a service'],
  sdk: ['software development kit'],
  sla: ['service level agreement'],
  slo: ['service level objective'],
  sre: ['site reliability engineering', 'site reliability engineer'],
  sso: ['single sign-on', 'single sign on'],
  tls: ['transport layer security'],
  ui: ['user interface'],
  ux: ['user experience'],
  vm: ['virtual machine'],
  vpn: ['virtual private network'],
  wip: ['work in progress'],
  '2fa': ['two-factor authentication', 'two factor authentication'],
};

/** What an acronym (lower-cased) stands for; none when it is not in the table. */
export const expansionsOf = (acronym: string): readonly string[] => ACRONYMS[acronym] ?? [];

/** An acronym of the table whose expansion a text says, and where: `length` words from `start`. */
export interface SpelledAcronym {
  acronym: string;
  start: number;
  length: number;
}

/** Each expansion as its words, longest first, so that "single sign-on" is read before a shorter expansion. */
const EXPANSION_WORDS: ReadonlyArray<{ acronym: string; words: readonly string[] }> = Object.entries(ACRONYMS)
  .flatMap(([acronym, expansions]) =>
    expansions.map((expansion) => ({ acronym, words: expansion.split(/[^\p{L}\p{N}]+/u) })),
  )
  .filter(({ words }) => words.length > 1)
  .sort((a, b) => b.words.length - a.words.length);

/**
 * The expansions of the table that a text's words (lower-cased, in order) say, the other way round from `expansionsOf`:
 * its user asks for "single sign-on" where the notes say "SSO". Expansions of one word ("kubernetes") are left out:
 * a word alone is no sign that its acronym is meant.
 */
export function acronymsSpelledIn(words: readonly string[]): SpelledAcronym[] {
  const found: SpelledAcronym[] = [];
  for (let start = 0; start < words.length; start++) {
    const match = EXPANSION_WORDS.find(({ words: expansion }) =>
      expansion.every((word, i) => words[start + i] === word),
    );
    if (!match) continue;
    found.push({ acronym: match.acronym, start, length: match.words.length });
    start += match.words.length - 1;
  }
  return found;
}

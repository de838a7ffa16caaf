/**
 * Synthetic but varied memories and questions for the speed benchmark, from a seeded generator: the same seed
 * gives the same texts on every machine. Sentences mix people, teams, projects, places, times, identifiers and
 * free-form tails through two dozen templates, so keyword and vector searches see a realistic spread of
 * frequent and rare words.
 */
import { seededRandom } from '../../src/core/random.js';

const PEOPLE =
  'Alice Bob Carol Dave Erin Frank Grace Heidi Ivan Judy Mallory Niaj Olivia Peggy Rupert Sybil Trent Victor Walter Yasmin Zoe Aarav Beatriz Chen Dmitri Elif Fatima Goran Hana Ines Jonas Kenji Lucia Mateo Nadia Omar Priya Quentin Rosa Sanjay Tomasz Ulla Vikram Wen Ximena Yusuf Zanele Amara Bruno Chloe'.split(
    ' ',
  );
const TEAMS = [
  'the platform team',
  'the data team',
  'the mobile team',
  'the billing squad',
  'the security group',
  'the design guild',
  'the support desk',
  'the SRE rotation',
  'the growth team',
  'the infra crew',
  'legal',
  'finance',
  'the search team',
  'the onboarding team',
  'the ML group',
];
const PROJECTS =
  'Falcon Zephyr Orion Nimbus Atlas Helix Quasar Tundra Sequoia Ember Lynx Mosaic Aurora Cobalt Juniper Keystone Lumen Meridian Nova Onyx Pioneer Raven Solstice Titan Umbra Vortex Willow Xenon Yonder Zenith'.split(
    ' ',
  );
const TOPICS = [
  'the quarterly revenue report',
  'the Postgres migration',
  'green tea',
  'the dentist appointment',
  'a vegetarian restaurant near the office',
  'the on-call schedule',
  'the hiring plan',
  'the API rate limits',
  'the new logo',
  'Kubernetes upgrades',
  'the customer churn analysis',
  'the offsite in Lisbon',
  'flaky integration tests',
  'the pricing page',
  'the mobile release',
  'the accessibility audit',
  'the data retention policy',
  'code review etiquette',
  'the incident postmortem',
  'the holiday calendar',
  'TypeScript strict mode',
  'the coffee machine',
  'the load balancer',
  'SSO with Okta',
  'the budget for Q3',
  'the marketing campaign',
  'the CI pipeline',
  'the search relevance tuning',
  'the GDPR request',
  'the backup restore drill',
  'the partner integration',
  'the feature flag cleanup',
  'a standing desk',
  'the design system',
  'the analytics dashboard',
  'the cache invalidation bug',
  'the support backlog',
  'vendor contracts',
  'the roadmap review',
  'the team lunch',
];
const VERBS_PREF = [
  'prefers',
  'dislikes',
  'keeps asking about',
  'is allergic to',
  'wants to learn about',
  'recommended',
  'complained about',
  'is excited about',
  'volunteered to handle',
  'forgot about',
];
const PLACES = [
  'Berlin',
  'Lisbon',
  'Tokyo',
  'Nairobi',
  'Toronto',
  'São Paulo',
  'Oslo',
  'Melbourne',
  'Seoul',
  'Austin',
  'Dublin',
  'Warsaw',
  'Lagos',
  'Mumbai',
  'Zurich',
  'the London office',
  'the remote hub',
  'the Paris office',
];
const TIMES = [
  'on Monday',
  'last Tuesday',
  'yesterday',
  'this morning',
  'in March',
  'in Q2',
  'during the retro',
  'at the all-hands',
  'before the release',
  'after lunch',
  'over the weekend',
  'at 3 pm',
  'in the standup',
  'last quarter',
  'two weeks ago',
];
const OUTCOMES = [
  'and it went well',
  'but nobody followed up',
  'and the numbers improved by 12%',
  'which caused a short outage',
  'so the deadline moved',
  'and the customer was happy',
  'but the tests kept failing',
  'and we rolled back',
  'which saved about $4,000 a month',
  'and everyone agreed to revisit it',
  'after a long debate',
  'with help from the vendor',
];
/** About a third of the memories get a second sentence (and so atomic facts). */
const TAILS = [
  '',
  '',
  '',
  '',
  '',
  '',
  '',
  '',
  '',
  '',
  ' This matters for the next planning cycle.',
  ' Keep this in mind when scheduling.',
  ' The details are in the shared drive.',
  ' Ask before changing it again.',
  ' It came up twice in the last month.',
];
const ADJECTIVES = [
  'slow',
  'reliable',
  'expensive',
  'confusing',
  'popular',
  'fragile',
  'fast',
  'outdated',
  'critical',
  'experimental',
];

const pick = <T>(next: () => number, list: readonly T[]): T => list[Math.floor(next() * list.length)]!;
const ticket = (next: () => number): string =>
  `${pick(next, ['INC', 'OPS', 'SEC', 'DATA', 'WEB'])}-${1000 + Math.floor(next() * 9000)}`;

type Template = (n: () => number) => string;

const MEMORY_TEMPLATES: Template[] = [
  (n) => `${pick(n, PEOPLE)} ${pick(n, VERBS_PREF)} ${pick(n, TOPICS)}.`,
  (n) =>
    `${pick(n, PEOPLE)} met ${pick(n, PEOPLE)} in ${pick(n, PLACES)} ${pick(n, TIMES)} to discuss ${pick(n, TOPICS)}.`,
  (n) => `${capital(pick(n, TEAMS))} shipped Project ${pick(n, PROJECTS)} ${pick(n, TIMES)} ${pick(n, OUTCOMES)}.`,
  (n) => `We decided to move ${pick(n, TOPICS)} to Project ${pick(n, PROJECTS)} ${pick(n, TIMES)}.`,
  (n) => `Incident ${ticket(n)}: ${pick(n, TOPICS)} failed ${pick(n, TIMES)} ${pick(n, OUTCOMES)}.`,
  (n) => `${pick(n, PEOPLE)} owns Project ${pick(n, PROJECTS)} and reports to ${pick(n, PEOPLE)}.`,
  (n) =>
    `To restart ${pick(n, TOPICS)}, ask ${pick(n, TEAMS)} and follow the runbook for Project ${pick(n, PROJECTS)}.`,
  (n) => `${pick(n, PEOPLE)} thinks ${pick(n, TOPICS)} is ${pick(n, ADJECTIVES)}.`,
  (n) =>
    `${pick(n, PEOPLE)} is moving to ${pick(n, PLACES)} ${pick(n, TIMES)} and will work on Project ${pick(n, PROJECTS)}.`,
  (n) =>
    `The budget for Project ${pick(n, PROJECTS)} is $${10 + Math.floor(n() * 990)}k, approved by ${pick(n, PEOPLE)}.`,
  (n) => `${capital(pick(n, TEAMS))} keeps a weekly sync about ${pick(n, TOPICS)} ${pick(n, TIMES)}.`,
  (n) => `${pick(n, PEOPLE)} reported ${ticket(n)} about ${pick(n, TOPICS)}; ${pick(n, PEOPLE)} is looking into it.`,
  (n) =>
    `Reminder: ${pick(n, PEOPLE)} needs the numbers on ${pick(n, TOPICS)} before ${pick(n, TIMES).replace(/^(on|in|at) /, '')}.`,
  (n) => `${pick(n, PEOPLE)} said Project ${pick(n, PROJECTS)} depends on ${pick(n, TOPICS)} ${pick(n, OUTCOMES)}.`,
  (n) => `In ${pick(n, PLACES)}, ${pick(n, TEAMS)} ran a workshop on ${pick(n, TOPICS)} ${pick(n, TIMES)}.`,
  (n) => `${pick(n, PEOPLE)}'s favourite tool for ${pick(n, TOPICS)} is a ${pick(n, ADJECTIVES)} spreadsheet.`,
];

const QUERY_TEMPLATES: Template[] = [
  (n) => `What does ${pick(n, PEOPLE)} think about ${pick(n, TOPICS)}?`,
  (n) => `Who owns Project ${pick(n, PROJECTS)}?`,
  (n) => `When did ${pick(n, TEAMS)} ship Project ${pick(n, PROJECTS)}?`,
  (n) => `incident ${ticket(n)}`,
  (n) => `What happened with ${pick(n, TOPICS)} ${pick(n, TIMES)}?`,
  (n) => `How do I restart ${pick(n, TOPICS)}?`,
  (n) => `Where is ${pick(n, PEOPLE)} moving?`,
  (n) => `budget of Project ${pick(n, PROJECTS)}`,
  (n) => `Which team works on ${pick(n, TOPICS)}?`,
  (n) => `${pick(n, PEOPLE)} ${pick(n, PLACES)} meeting`,
  (n) => `Is ${pick(n, TOPICS)} ${pick(n, ADJECTIVES)}?`,
  (n) => `What did we decide about ${pick(n, TOPICS)}?`,
];

const capital = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);

export function memories(count: number, seed = 42): string[] {
  const next = seededRandom(seed);
  return Array.from({ length: count }, () => `${pick(next, MEMORY_TEMPLATES)(next)}${pick(next, TAILS)}`);
}

export function questions(count: number, seed = 7): string[] {
  const next = seededRandom(seed);
  return Array.from({ length: count }, () => pick(next, QUERY_TEMPLATES)(next));
}

import { seededRandom } from '../src/core/random.js';

/**
 * Synthetic but varied memories: people, places, actions, objects, times and numbers combined by a seeded
 * generator, so every run (and every backend) ingests the same text.
 */
const PEOPLE = [
  'Maria',
  'Kenji',
  'Amara',
  'Lukas',
  'Priya',
  'Diego',
  'Sofia',
  'Omar',
  'Hannah',
  'Wei',
  'Fatima',
  'Jonas',
  'Elena',
  'Tariq',
  'Grace',
  'Mateo',
];
const PLACES = [
  'Berlin',
  'Lisbon',
  'Osaka',
  'Nairobi',
  'Toronto',
  'Lima',
  'Oslo',
  'Cairo',
  'Seoul',
  'Austin',
  'Dublin',
  'Hanoi',
];
const ACTIONS = [
  'fixed',
  'reviewed',
  'deployed',
  'designed',
  'tested',
  'documented',
  'benchmarked',
  'refactored',
  'migrated',
  'debugged',
  'planned',
  'presented',
];
const OBJECTS = [
  'the billing service',
  'the search index',
  'the onboarding flow',
  'the mobile app',
  'the payment gateway',
  'the data pipeline',
  'the auth module',
  'the reporting dashboard',
  'the cache layer',
  'the email worker',
  'the API gateway',
  'the recommendation model',
];
const TIMES = [
  'on Monday',
  'on Tuesday',
  'last week',
  'yesterday',
  'in March',
  'this morning',
  'after lunch',
  'before the release',
  'during the outage',
  'at the offsite',
];
const HOBBIES = [
  'hiking',
  'painting',
  'chess',
  'cycling',
  'baking',
  'photography',
  'climbing',
  'gardening',
  'piano',
  'running',
];
const FOODS = ['green tea', 'espresso', 'ramen', 'tacos', 'sourdough', 'dumplings', 'falafel', 'curry'];

const TEMPLATES: Array<(pick: <T>(xs: readonly T[]) => T, n: number) => string> = [
  (p, n) => `${p(PEOPLE)} ${p(ACTIONS)} ${p(OBJECTS)} in ${p(PLACES)} ${p(TIMES)}; it took ${(n % 9) + 1} hours.`,
  (p) => `${p(PEOPLE)} prefers ${p(FOODS)} and spends weekends ${p(HOBBIES)} near ${p(PLACES)}.`,
  (p, n) => `Ticket ${1000 + n}: ${p(OBJECTS)} failed ${p(TIMES)} and ${p(PEOPLE)} ${p(ACTIONS)} it.`,
  (p, n) =>
    `The team in ${p(PLACES)} agreed that ${p(OBJECTS)} needs ${(n % 5) + 2} more engineers by Q${(n % 4) + 1}.`,
  (p) => `${p(PEOPLE)} told ${p(PEOPLE)} that ${p(HOBBIES)} helps with stress after working on ${p(OBJECTS)}.`,
  (p, n) => `Latency of ${p(OBJECTS)} dropped to ${(n % 400) + 20} ms after ${p(PEOPLE)} ${p(ACTIONS)} it ${p(TIMES)}.`,
];

export function syntheticSentences(count: number, seed = 42): string[] {
  const random = seededRandom(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
  return Array.from({ length: count }, (_, n) => `${TEMPLATES[n % TEMPLATES.length]!(pick, n)} (#${n})`);
}

/**
 * Embedding throughput on this machine: `npm run bench:embedding`.
 * Prints ms/sentence of the `local` provider (one sentence per call, and whole batches) with 1 and 2
 * workers, and the throughput of `hash`, over 200 varied sentences.
 */
import { availableParallelism, cpus, loadavg } from 'node:os';
import { HashEmbeddingProvider } from '../src/providers/embedding/hash.js';
import { LocalEmbeddingProvider } from '../src/providers/embedding/local.js';
import type { EmbeddingProvider } from '../src/providers/embedding/types.js';

const SUBJECTS = [
  'The user',
  'My manager',
  'Our team',
  'The customer from Lyon',
  'Alice',
  'The new intern',
  'Bob’s sister',
  'The on-call engineer',
];
const VERBS = [
  'prefers',
  'asked about',
  'complained about',
  'scheduled',
  'forgot',
  'recommended',
  'is allergic to',
  'wants to learn',
];
const OBJECTS = [
  'green tea in the morning',
  'the quarterly revenue report',
  'a flight to Tokyo next Tuesday',
  'peanuts',
  'the Postgres migration',
  'Rust and TypeScript',
  'the dentist appointment',
  'a vegetarian restaurant near the office',
];
const TAILS = [
  '',
  ' because it was mentioned twice last week',
  ', and said it matters more than the budget review',
  '. This came up again during the retrospective, where several people agreed that the process should change before the next release cycle starts',
];

/** Distinct deterministic sentences of varied length and content (up to 512 before repeating). */
function sentences(count: number): string[] {
  return Array.from({ length: count }, (_, i) => {
    // Mixed radix: subject and verb cycle every 64, the object shifts with each cycle of 64.
    const subject = SUBJECTS[i % 8]!;
    const verb = VERBS[(i >> 3) % 8]!;
    const object = OBJECTS[(i + (i >> 3) + (i >> 6)) % 8]!;
    const tail = TAILS[(i * 3 + (i >> 2)) % 4]!;
    return `${subject} ${verb} ${object}${tail}.`;
  });
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function timed(run: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await run();
  return performance.now() - start;
}

/** One text per call; `callers` calls in flight at a time, as concurrent recall requests would be. */
async function embedOneByOne(provider: EmbeddingProvider, texts: string[], callers: number): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: callers }, async () => {
      while (next < texts.length) await provider.embed([texts[next++]!]);
    }),
  );
}

async function benchLocal(texts: string[], workers: number): Promise<void> {
  const provider = new LocalEmbeddingProvider({ model: undefined, workers });
  const initMs = await timed(() => provider.init());
  const single: number[] = [];
  const batched: number[] = [];
  for (let run = 0; run < 3; run++) {
    single.push(await timed(() => embedOneByOne(provider, texts, workers)));
    batched.push(await timed(() => provider.embed(texts)));
  }
  await provider.close();
  const perSentence = (ms: number): string => (ms / texts.length).toFixed(2).padStart(6);
  console.log(
    `local, ${workers} worker(s): init ${initMs.toFixed(0)} ms | single ${perSentence(median(single))} ms/sentence | batched (32) ${perSentence(median(batched))} ms/sentence  (median of 3)`,
  );
}

async function benchHash(texts: string[]): Promise<void> {
  const provider = new HashEmbeddingProvider();
  const rounds = 50;
  const ms = await timed(async () => {
    for (let round = 0; round < rounds; round++) await provider.embed(texts);
  });
  const count = rounds * texts.length;
  console.log(
    `hash (${provider.dimensions} dims): ${((count / ms) * 1000).toFixed(0)} sentences/s, ${((ms / count) * 1000).toFixed(1)} µs/sentence`,
  );
}

const texts = sentences(200);
const meanChars = texts.reduce((sum, text) => sum + text.length, 0) / texts.length;
const load = (): string =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');
console.log(
  `machine: ${cpus()[0]?.model ?? 'unknown cpu'}, ${availableParallelism()} cores, node ${process.version}, load average ${load()}`,
);
console.log(`${texts.length} sentences, ${new Set(texts).size} distinct, mean ${meanChars.toFixed(0)} characters`);
await benchHash(texts);
for (const workers of [1, 2]) await benchLocal(texts, workers);
// Other processes share these cores; a high load average means the figures above are pessimistic.
console.log(`load average after: ${load()}`);

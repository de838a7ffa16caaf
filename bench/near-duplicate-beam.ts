/**
 * What the near-duplicate check finds and costs at each HNSW beam (NEAR_DUPLICATE_BEAM, src/storage/sql/search-engine.ts):
 * `npx tsx bench/near-duplicate-beam.ts`.
 *
 * SQLite's vector index (WorkspaceVectorIndexes, hash embedder) is filled with the scale corpus's memories in batches
 * of 1,000. Then memories are reworded three ways (upper case with another final mark, a clause added, the first
 * word replaced), and each rewording's exact nearest memories at or above the merge threshold (0.85, at most the 3
 * the write path asks for) are found by a full scan. Printed per beam: how many of them the index's search finds among
 * its 3 best, and the search's time per rewording when a batch's vectors are searched together, as the write path does.
 *
 * Environment: BEAM_SIZE (memories, 100000), BEAM_PROBES (memories reworded, 400), BEAM_WIDTHS (11,16,24,40,96).
 */
import { HashEmbeddingProvider } from '../src/providers/embedding/hash.js';
import { cosine } from '../src/providers/embedding/vector.js';
import { DEFAULT_VECTOR_INDEX, WorkspaceVectorIndexes } from '../src/storage/sqlite/vector-index.js';
import { ScaleCorpus } from '../test/support/scale-corpus.js';
import { loadAverages, machineLine } from './machine.js';

const SIZE = Number(process.env.BEAM_SIZE ?? 100_000);
const PROBES = Number(process.env.BEAM_PROBES ?? 400);
const WIDTHS = (process.env.BEAM_WIDTHS ?? '11,16,24,40,96').split(',').map(Number);
const MERGE_THRESHOLD = 0.85;
const NEIGHBOURS = 3;
const WORKSPACE = 'ws';

const rewordings = (text: string): string[] => [
  text.toUpperCase().replace(/\.$/, '!'),
  `${text.replace(/\.$/, '')} again, as before.`,
  text.replace(/\b\w+\b/, 'Yesterday'),
];

console.log(machineLine());
const embedder = new HashEmbeddingProvider();
const texts = new ScaleCorpus(SIZE, { questionsPerKind: 100 }).slice(0, SIZE);
const vectors = await embedder.embed(texts);
const index = new WorkspaceVectorIndexes({ ...DEFAULT_VECTOR_INDEX, dimensions: embedder.dimensions });
for (let from = 0; from < SIZE; from += 1_000)
  index.upsert(
    WORKSPACE,
    vectors
      .slice(from, from + 1_000)
      .map((embedding, i) => ({ seq: from + i, id: `m${from + i}`, derived: false, factOf: null, embedding })),
  );

const probes: Float32Array[] = [];
for (let p = 0; p < PROBES; p++) probes.push(...(await embedder.embed(rewordings(texts[(p * 7_919 + 13) % SIZE]!))));
const nearest = probes.map((probe) =>
  vectors
    .map((vector, seq) => ({ seq, similarity: cosine(vector, probe) }))
    .filter((n) => n.similarity >= MERGE_THRESHOLD)
    .sort((a, b) => b.similarity - a.similarity)
    .slice(0, NEIGHBOURS)
    .map((n) => n.seq),
);
const wanted = nearest.flat().length;
console.log(
  `${SIZE} memories, ${probes.length} rewordings, ${nearest.filter((n) => n.length > 0).length} with a memory at ` +
    `${MERGE_THRESHOLD} or above, ${wanted} such memories in all; load ${loadAverages()}`,
);
console.log('| beam | found | µs a rewording |\n|---|---|---|');
for (const beam of WIDTHS) {
  const started = performance.now();
  const found = index.search(WORKSPACE, probes, NEIGHBOURS, undefined, beam);
  const micros = ((performance.now() - started) * 1000) / probes.length;
  const hits = found.reduce((sum, hits, p) => sum + hits.filter((h) => nearest[p]!.includes(h.seq)).length, 0);
  console.log(`| ${beam} | ${hits} / ${wanted} | ${micros.toFixed(0)} |`);
}

/**
 * What the near-duplicate check finds and costs at each HNSW beam (`nearNeighbourBeam`, src/storage/sql/search-engine.ts):
 * `npx tsx bench/near-duplicate-beam.ts`.
 *
 * SQLite's vector index (WorkspaceVectorIndexes, hash embedder) is filled with the scale corpus's memories in batches
 * of 1,000. Then memories are reworded three ways (upper case with another final mark, a clause added, the first
 * word replaced), and each rewording's exact nearest memories at or above the merge threshold (0.85, at most the 3
 * the write path asks for) are found by a full scan. Printed per beam: how many of them the index's search finds among
 * its 3 best, and the search's time per rewording when a batch's vectors are searched together, as the write path does.
 *
 * `BEAM_PROBE=stored` measures enrichment's neighbour search instead (MemoryEnricher, src/core/memories/enrich.ts): the
 * probes are stored memories themselves, and what is wanted is each one's exact nearest others at or above
 * BEAM_THRESHOLD (0.5, the least similarity an enrichment step uses), at most BEAM_NEIGHBOURS (8).
 *
 * Environment: BEAM_SIZE (memories, 100000), BEAM_PROBES (memories probed, 400), BEAM_WIDTHS (11,16,24,40,96),
 * BEAM_PROBE (reworded), BEAM_THRESHOLD and BEAM_NEIGHBOURS (0.85 and 3 reworded, 0.5 and 8 stored), BEAM_EMBEDDER
 * (hash; `local`: the default model, which takes minutes to embed 100,000 texts), BEAM_ENGINE (sqlite; `postgres`:
 * pgvector on a bench cluster, or MEMD_BENCH_DATABASE_URL, one statement a probe, timed with its round trip;
 * `postgres-ivfflat`: pgvector's IVFFlat trained on the filled table, `ivfflat.probes` in place of the beam).
 */
import pg from 'pg';
import { HashEmbeddingProvider } from '../src/providers/embedding/hash.js';
import { LocalEmbeddingProvider } from '../src/providers/embedding/local.js';
import { cosine } from '../src/providers/embedding/vector.js';
import { INDEXED_VECTOR_TYPE, vectorIndexDefinition } from '../src/storage/postgres/vector-index.js';
import { DEFAULT_VECTOR_INDEX, WorkspaceVectorIndexes } from '../src/storage/sqlite/vector-index.js';
import { ScaleCorpus } from '../test/support/scale-corpus.js';
import { loadAverages, machineLine } from './machine.js';
import { benchPostgres } from './postgres.js';

const SIZE = Number(process.env.BEAM_SIZE ?? 100_000);
const PROBES = Number(process.env.BEAM_PROBES ?? 400);
const WIDTHS = (process.env.BEAM_WIDTHS ?? '11,16,24,40,96').split(',').map(Number);
const STORED = process.env.BEAM_PROBE === 'stored';
const THRESHOLD = Number(process.env.BEAM_THRESHOLD ?? (STORED ? 0.5 : 0.85));
const NEIGHBOURS = Number(process.env.BEAM_NEIGHBOURS ?? (STORED ? 8 : 3));
/** Results a search asks for: a stored probe finds itself first. */
const asked = NEIGHBOURS + (STORED ? 1 : 0);
const WORKSPACE = 'ws';
const ENGINE = process.env.BEAM_ENGINE ?? 'sqlite';

const rewordings = (text: string): string[] => [
  text.toUpperCase().replace(/\.$/, '!'),
  `${text.replace(/\.$/, '')} again, as before.`,
  text.replace(/\b\w+\b/, 'Yesterday'),
];

console.log(machineLine());
const embedder =
  process.env.BEAM_EMBEDDER === 'local'
    ? new LocalEmbeddingProvider({ model: undefined, workers: 2 })
    : new HashEmbeddingProvider();
await embedder.init();
const texts = new ScaleCorpus(SIZE, { questionsPerKind: 100 }).slice(0, SIZE);
const vectors = await embedder.embed(texts);
const probed = Array.from({ length: PROBES }, (_, p) => (p * 7_919 + 13) % SIZE);
const probes: Float32Array[] = [];
if (STORED) probes.push(...probed.map((seq) => vectors[seq]!));
else for (const seq of probed) probes.push(...(await embedder.embed(rewordings(texts[seq]!))));
// A stored probe is not its own neighbour (enrichment drops itself from its search's answer).
const self = (p: number): number => (STORED ? probed[p]! : -1);
const nearest = probes.map((probe, p) =>
  vectors
    .map((vector, seq) => ({ seq, similarity: cosine(vector, probe) }))
    .filter((n) => n.similarity >= THRESHOLD && n.seq !== self(p))
    .sort((a, b) => b.similarity - a.similarity)
    .slice(0, NEIGHBOURS)
    .map((n) => n.seq),
);
const wanted = nearest.flat().length;
console.log(
  `${SIZE} memories (${embedder.name}), ${probes.length} ${STORED ? 'stored memories' : 'rewordings'}, ` +
    `${nearest.filter((n) => n.length > 0).length} with another at ${THRESHOLD} or above, ${wanted} such memories ` +
    `(at most ${NEIGHBOURS} each) in all; load ${loadAverages()}`,
);

/** The seqs each probe's search answers with `beam` as its HNSW beam, searched as memd searches on each engine. */
type Search = (beam: number) => Promise<number[][]>;

/** SQLite's vector index: the batch's vectors searched together, as the write path and enrichment do. */
function sqliteSearch(): Search {
  const index = new WorkspaceVectorIndexes({ ...DEFAULT_VECTOR_INDEX, dimensions: embedder.dimensions });
  for (let from = 0; from < SIZE; from += 1_000)
    index.upsert(
      WORKSPACE,
      vectors
        .slice(from, from + 1_000)
        .map((embedding, i) => ({ seq: from + i, id: `m${from + i}`, derived: false, factOf: null, embedding })),
    );
  return async (beam) => index.search(WORKSPACE, probes, asked, undefined, beam).map((hits) => hits.map((h) => h.seq));
}

/**
 * pgvector's HNSW as memd builds it (type, operator class, parameters) on a bench cluster (bench/postgres.ts),
 * filled in rows of 1,000 and indexed as rows arrive (as memd's writes are); one statement a probe,
 * `hnsw.ef_search` set to the beam.
 */
async function postgresSearch(client: pg.Client, ivfflat: boolean): Promise<Search> {
  // The index as memd builds it: on the vectors cast to the graph's type.
  const typed = `${INDEXED_VECTOR_TYPE}(${embedder.dimensions})`;
  const indexed = `embedding::${typed}`;
  await client.query(`CREATE EXTENSION IF NOT EXISTS vector; DROP TABLE IF EXISTS beam_vectors;
    CREATE TABLE beam_vectors (seq int PRIMARY KEY, embedding vector(${embedder.dimensions}))`);
  const index = ivfflat
    ? `CREATE INDEX ON beam_vectors ${vectorIndexDefinition('ivfflat', indexed, SIZE)}`
    : `CREATE INDEX ON beam_vectors ${vectorIndexDefinition('hnsw', indexed, SIZE)}`;
  // IVFFlat is trained on the rows present (as memd's retraining does), HNSW filled as rows arrive.
  if (!ivfflat) await client.query(index);
  for (let from = 0; from < SIZE; from += 1_000) {
    const rows = vectors.slice(from, from + 1_000);
    await client.query('INSERT INTO beam_vectors SELECT * FROM unnest($1::int[], $2::vector[])', [
      rows.map((_, i) => from + i),
      rows.map((v) => `[${v.join(',')}]`),
    ]);
  }
  if (ivfflat) await client.query(`SET maintenance_work_mem = '2GB'; ${index}`);
  return async (beam) => {
    await client.query(ivfflat ? `SET ivfflat.probes = ${beam}` : `SET hnsw.ef_search = ${beam}`);
    const found: number[][] = [];
    for (const probe of probes) {
      const { rows } = await client.query(
        `SELECT seq FROM beam_vectors ORDER BY ${indexed} <=> $1::vector::${typed} LIMIT $2`,
        [`[${probe.join(',')}]`, asked],
      );
      found.push(rows.map((r) => r.seq as number));
    }
    return found;
  };
}

const cluster = ENGINE.startsWith('postgres') ? await benchPostgres() : null;
const client = cluster ? new pg.Client({ connectionString: cluster.url }) : null;
await client?.connect();
const search = client ? await postgresSearch(client, ENGINE === 'postgres-ivfflat') : sqliteSearch();
console.log(`${cluster ? `PostgreSQL: ${cluster.describe}` : 'SQLite (usearch)'}; load ${loadAverages()}`);
console.log('| beam | found | µs a probe |\n|---|---|---|');
for (const beam of WIDTHS) {
  const started = performance.now();
  const found = await search(beam);
  const micros = ((performance.now() - started) * 1000) / probes.length;
  const hits = found.reduce((sum, seqs, p) => sum + seqs.filter((seq) => nearest[p]!.includes(seq)).length, 0);
  console.log(`| ${beam} | ${hits} / ${wanted} | ${micros.toFixed(0)} |`);
}
await client?.end();
await cluster?.stop();
process.exit(0);

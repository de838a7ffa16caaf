import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { VectorIndexKind } from '../../config/settings/storage.js';
import type { Database } from '../database.js';
import { DUPLICATE_SIMILARITY } from '../sql/search-engine.js';
import { TableGrowth } from './table-growth.js';

/**
 * The HNSW graph's build parameters, pgvector's defaults, named so that they are chosen rather than inherited: on
 * the hash embedder's vectors at 100,000 memories, m 8 halved the insert's page reads but kept 0.48 of the exact 40
 * nearest where m 16 keeps 0.62, and ef_construction 32 saved a quarter for 0.58 (docs/postgres-tuning.md).
 */
export const HNSW_M = 16;
export const HNSW_EF_CONSTRUCTION = 64;
/** The type either index holds its vectors in, and its cosine operator class (`indexedEmbedding`). */
export const INDEXED_VECTOR_TYPE = 'halfvec';
export const INDEX_OPERATOR_CLASS = 'halfvec_cosine_ops';

/**
 * Rows an IVFFlat list holds when trained. With 40 probes a search reads about 12,800 vectors whatever the table's
 * size, which at 100,000 hash vectors found about as many of the exact 80 nearest as HNSW at `ef_search` 200 (0.67
 * against 0.68), in 7.5 ms against 7.9 (`npm run bench:pg-index`, BENCHMARKS.md "IVFFlat beside HNSW"). A table of
 * fewer than 40 lists' rows is read whole.
 */
export const IVFFLAT_ROWS_PER_LIST = 320;
/** pgvector's k-means samples 50 rows a list; more lists than this were not measured. */
export const IVFFLAT_MAX_LISTS = 5_000;

/** The lists an IVFFlat index over `rows` vectors is trained with. */
export const ivfflatLists = (rows: number): number =>
  Math.min(IVFFLAT_MAX_LISTS, Math.max(1, Math.round(rows / IVFFLAT_ROWS_PER_LIST)));

/**
 * IVFFlat's probes for a search for near neighbours only (VectorSearchOptions.minScore), as `nearNeighbourBeam` is
 * HNSW's. Measured at 100,000 hash vectors, 313 lists (`BEAM_ENGINE=postgres-ivfflat npx tsx
 * bench/near-duplicate-beam.ts`, BENCHMARKS.md "IVFFlat beside HNSW"): duplicates (0.85 and above, their 3 nearest)
 * 744 of 745 at 4 probes, all at 7, 668 at 1; enrichment's neighbours (0.5 and above, their 8 nearest) 2,125 of
 * 2,395 at 16, 2,285 at 40 for twice the time. Fixed counts, not recall's probes: what is that close lies in the
 * query's own list or the next ones whatever recall reads.
 */
export const nearNeighbourProbes = (minScore: number): number => (minScore >= DUPLICATE_SIMILARITY ? 4 : 16);

/** The index's name says its kind, type and size, so that a start finds an index of another kind or size stale. */
export const vectorIndexName = (kind: VectorIndexKind, dimensions: number): string =>
  `memory_vectors_${kind}_half_${dimensions}`;

/** Every name `vectorIndexName` gives, for the stale-index sweep (a retraining's own names are not among them). */
export const VECTOR_INDEX_NAME_PATTERNS = ['memory_vectors_hnsw_%', 'memory_vectors_ivfflat_%'] as const;

/**
 * The index's method, operator class and build parameters over `expression` (`USING … WITH (…)`): what memd
 * builds, and what the benches build to measure it. IVFFlat's lists follow the `rows` it is trained on.
 */
export function vectorIndexDefinition(kind: VectorIndexKind, expression: string, rows: number): string {
  const parameters =
    kind === 'hnsw' ? `m = ${HNSW_M}, ef_construction = ${HNSW_EF_CONSTRUCTION}` : `lists = ${ivfflatLists(rows)}`;
  return `USING ${kind} ((${expression}) ${INDEX_OPERATOR_CLASS}) WITH (${parameters})`;
}

/**
 * The expression either index is built on, and every vector search orders by (the same text, or the planner does
 * not use the index). Half precision: the stored column keeps float4 (reads, exact similarities), the index holds
 * float2, as SQLite's usearch index does (f16). On 100,000 hash vectors the HNSW index took 79 MiB instead of 130,
 * an insert 8–10 % less time, and searches found as many of the exact nearest (BENCHMARKS.md, "the HNSW index in
 * half precision").
 */
export const indexedEmbedding = (dimensions: number): string =>
  `memory_vectors.embedding::${INDEXED_VECTOR_TYPE}(${Math.trunc(dimensions)})`;

/** `CREATE INDEX` of either kind over `indexedEmbedding`. */
export function createVectorIndex(
  kind: VectorIndexKind,
  name: string,
  dimensions: number,
  options: { rows: number; concurrently: boolean },
): RawBuilder<unknown> {
  const create = options.concurrently ? sql`CREATE INDEX CONCURRENTLY` : sql`CREATE INDEX IF NOT EXISTS`;
  // Only numbers and constants reach the raw text.
  const definition = vectorIndexDefinition(kind, indexedEmbedding(dimensions), options.rows);
  return sql`${create} ${sql.id(name)} ON memory_vectors ${sql.raw(definition)}`;
}

/** Rows of `memory_vectors`, every workspace's (one index serves them all). */
export async function vectorRows(db: Kysely<Database>): Promise<number> {
  const { rows } = await sql<{ n: number }>`SELECT count(*) AS n FROM memory_vectors`.execute(db);
  return Number(rows[0]?.n ?? 0);
}

/** The lists an IVFFlat index of this schema was trained with; null if it does not exist. */
async function trainedLists(db: Kysely<Database>, name: string): Promise<number | null> {
  const { rows } = await sql<{ options: string[] | null }>`SELECT c.reloptions AS options FROM pg_class c
    JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.relname = ${name} AND n.nspname = current_schema()`.execute(
    db,
  );
  if (rows.length === 0) return null;
  const lists = rows[0]!.options?.find((option) => option.startsWith('lists='));
  return lists ? Number(lists.slice('lists='.length)) : 1;
}

/** What a retraining did: built a new index, found the trained one still right, or left it to another node. */
export type Retraining = 'retrained' | 'current' | 'busy';

/**
 * Keeps an IVFFlat index trained for the table it serves. IVFFlat's lists are the k-means centres of the rows present
 * when it is built: on an empty table (a new database) every vector later lands in lists that describe nothing, and
 * a table that has grown tenfold reads ten times the rows a probe. So each time the table has grown by what it held
 * at the last training (TableGrowth; at first two lists' worth), a node counts the table and, if it now calls for at
 * least twice the lists, builds a new index beside the old one (`CREATE INDEX CONCURRENTLY`: writes and searches go
 * on), swaps the names and drops the old one: a few times in the table's life, each costing what a build at that
 * size costs (2.7 s at 100,000 rows). One node at a time, by a session advisory lock of the schema.
 */
export class IvfflatTraining {
  // A failed build leaves an invalid index under the building name, dropped by the next retraining.
  private readonly growth = new TableGrowth(2 * IVFFLAT_ROWS_PER_LIST, async () => (await this.train()).rows);

  private readonly name: string;
  /** The new index while it is built, and the old one between the swap and its drop. */
  private readonly building: string;
  private readonly retired: string;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly dimensions: number,
  ) {
    this.name = vectorIndexName('ivfflat', dimensions);
    this.building = `memory_vectors_retraining_${dimensions}`;
    this.retired = `memory_vectors_retired_${dimensions}`;
  }

  /** The table held `rows` when the index was found or built at start. */
  trainedAt(rows: number): void {
    this.growth.ranAt(rows);
  }

  /** Rows committed by this node. */
  noteRowsAdded(count: number): void {
    this.growth.noteRowsAdded(count);
  }

  /** Counts the table and retrains if it calls for twice the lists or more (tests call it directly). */
  async retrain(): Promise<Retraining> {
    const { outcome, rows } = await this.train();
    if (rows !== null) this.growth.ranAt(rows);
    return outcome;
  }

  /** What `retrain` does, with the table's rows when it counted them (not when another node held the lock). */
  private train(): Promise<{ outcome: Retraining; rows: number | null }> {
    return this.db.connection().execute(async (db) => {
      const key = sql`hashtextextended(current_schema() || ' memd vector index', 0)`;
      const { rows } = await sql<{ locked: boolean }>`SELECT pg_try_advisory_lock(${key}) AS locked`.execute(db);
      if (!rows[0]?.locked) return { outcome: 'busy', rows: null };
      try {
        const count = await vectorRows(db);
        const trained = await trainedLists(db, this.name);
        if (trained !== null && ivfflatLists(count) < 2 * trained) return { outcome: 'current', rows: count };
        const building = sql.id(this.building);
        const retired = sql.id(this.retired);
        // Left by a build or a swap that a crash interrupted.
        await sql`DROP INDEX IF EXISTS ${building}`.execute(db);
        await sql`DROP INDEX IF EXISTS ${retired}`.execute(db);
        await createVectorIndex('ivfflat', this.building, this.dimensions, {
          rows: count,
          concurrently: true,
        }).execute(db);
        // Both names change in one transaction: a search finds the old index or the new one, never neither.
        await db.transaction().execute(async (tx) => {
          await sql`ALTER INDEX IF EXISTS ${sql.id(this.name)} RENAME TO ${retired}`.execute(tx);
          await sql`ALTER INDEX ${building} RENAME TO ${sql.id(this.name)}`.execute(tx);
        });
        await sql`DROP INDEX CONCURRENTLY IF EXISTS ${retired}`.execute(db);
        return { outcome: 'retrained', rows: count };
      } finally {
        await sql`SELECT pg_advisory_unlock(${key})`.execute(db);
      }
    });
  }

  /** Waits for a retraining in progress (before the pool closes). */
  async settle(): Promise<void> {
    await this.growth.settle();
  }
}

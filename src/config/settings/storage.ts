import { resolve } from 'node:path';
import { ConfigError, integer, oneOf, text, type Env } from '../setting.js';

export type StorageConfig =
  | { kind: 'sqlite'; path: string; insertBeam: number }
  | {
      kind: 'postgres';
      url: string;
      poolSize: number;
      schema: string | undefined;
      efSearch: number;
      vectorIndex: VectorIndexKind;
      ivfflatProbes: number;
    };

export type VectorIndexKind = 'hnsw' | 'ivfflat';

export const STORAGE = {
  dataDir: text({
    name: 'MEMD_DATA_DIR',
    default: './data',
    accepts: 'path',
    meaning: 'data directory (the SQLite database, the secret key)',
  }),
  kind: oneOf({
    name: 'MEMD_STORAGE',
    values: ['sqlite', 'postgres'] as const,
    default: 'sqlite',
    meaning: 'the database engine',
  }),
  sqliteFile: text({
    name: 'MEMD_SQLITE_FILE',
    default: 'memd.sqlite',
    accepts: 'path',
    meaning: 'the SQLite database, in the data directory (one server per file)',
  }),
  insertBeam: integer({
    name: 'MEMD_SQLITE_INSERT_BEAM',
    // 128 rather than 64: a better-connected graph (recall's 40 kept of 80 asked hold 0.993 of the exact 10 nearest at
    // 49,000 default-model vectors, 0.982 at 64), where 64 ingests a million memories 1.26–1.40× as fast on two cores
    // (BENCHMARKS.md, "three ways to a faster first recall or ingest at size"): with a real embedder writes are bound
    // by embedding long before the insert.
    default: 128,
    min: 16,
    max: 1000,
    meaning:
      'the embedded backend\'s HNSW insert beam (usearch `expansion_add`): 64 ingests a million memories 1.26–1.40× as fast on two cores and the graph holds a little less of the exact nearest (README, "Ingesting a million memories fast"); a saved graph loads whatever beam built it',
  }),
  url: text({
    name: 'MEMD_DATABASE_URL',
    accepts: 'URL',
    meaning: 'with `postgres`, required: `postgres://user:pass@host:5432/db` (PostgreSQL ≥ 15 with pgvector ≥ 0.8)',
  }),
  poolSize: integer({
    name: 'MEMD_DATABASE_POOL_SIZE',
    default: 10,
    min: 1,
    max: 200,
    meaning: 'Postgres connections of each node',
  }),
  efSearch: integer({
    name: 'MEMD_DATABASE_EF_SEARCH',
    default: 100,
    min: 10,
    max: 1000,
    meaning:
      "pgvector's HNSW search beam for recall (`hnsw.ef_search`, set on every connection): wider finds more of the exact nearest neighbours, and costs more (docs/deploy.md)",
  }),
  vectorIndex: oneOf({
    name: 'MEMD_DATABASE_VECTOR_INDEX',
    values: ['hnsw', 'ivfflat'] as const,
    default: 'hnsw',
    meaning:
      "pgvector's index for the dense arm: `ivfflat` inserts far cheaper than `hnsw` (ingest 1.7–2.5× at 100,000 memories) but searches slower; it is retrained in the background as the table grows (docs/deploy.md)",
  }),
  ivfflatProbes: integer({
    name: 'MEMD_DATABASE_IVFFLAT_PROBES',
    default: 40,
    min: 1,
    max: 1000,
    meaning:
      "with `ivfflat`, the lists a recall's vector search reads (`ivfflat.probes`, set on every connection): more finds more of the exact nearest, and costs more",
  }),
  schema: text({
    name: 'MEMD_DATABASE_SCHEMA',
    shownDefault: 'the search path of the role (`public`)',
    accepts: 'name',
    meaning: 'Postgres schema that holds the tables',
  }),
};

/** The data directory, made absolute. */
export const dataDirOf = (env: Env): string => resolve(STORAGE.dataDir.read(env));

/** The engine and where its data is; the Postgres settings are read only when Postgres is chosen. */
export function storageConfig(env: Env): StorageConfig {
  if (STORAGE.kind.read(env) === 'sqlite')
    return {
      kind: 'sqlite',
      path: resolve(dataDirOf(env), STORAGE.sqliteFile.read(env)),
      insertBeam: STORAGE.insertBeam.read(env),
    };
  const url = STORAGE.url.read(env);
  if (!url) throw new ConfigError('MEMD_STORAGE=postgres needs MEMD_DATABASE_URL (postgres://user:pass@host:5432/db)');
  return {
    kind: 'postgres',
    url,
    poolSize: STORAGE.poolSize.read(env),
    schema: STORAGE.schema.read(env),
    efSearch: STORAGE.efSearch.read(env),
    vectorIndex: STORAGE.vectorIndex.read(env),
    ivfflatProbes: STORAGE.ivfflatProbes.read(env),
  };
}

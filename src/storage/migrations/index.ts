import { Migrator, type Kysely, type Migration } from 'kysely';
import type { SqlDialect } from './column-types.js';
import * as foundation from './0001_foundation.js';
import * as sessions from './0002_sessions.js';
import * as knowledgebase from './0003_knowledgebase.js';
import * as conversation from './0004_conversation.js';
import * as sandbox from './0007_sandbox.js';
import * as registries from './0008_registries.js';
import * as documents from './0009_documents.js';
import * as backlinks from './0010_backlinks.js';
import * as factsOutOfKeywordIndex from './0011_facts_out_of_keyword_index.js';
import * as keywordScopeIndex from './0012_keyword_scope_index.js';
import * as memoryVersions from './0013_memory_versions.js';
import * as checkpointRevision from './0014_checkpoint_revision.js';
import * as erasures from './0017_erasures.js';
import * as documentPassages from './0018_document_passages.js';
import * as taskClaimOrder from './0019_task_claim_order.js';
import * as taskBacklog from './0020_task_backlog.js';
import * as keywordIndexWithoutPendingList from './0021_keyword_index_without_pending_list.js';
import * as keywordPopulationIndex from './0022_keyword_population_index.js';
import * as provisionalWorkspaces from './0023_provisional_workspaces.js';
import * as mentionedDates from './0024_mentioned_dates.js';
import * as keywordText from './0025_keyword_text.js';
import * as keywordTextSoutheastAsian from './0026_keyword_text_southeast_asian.js';
import * as keywordTextCode from './0027_keyword_text_code.js';
import * as keywordTextSeparators from './0028_keyword_text_separators.js';
import * as keywordTextCompounds from './0029_keyword_text_compounds.js';

export interface VersionedMigration {
  up(db: Kysely<any>, dialect: SqlDialect): Promise<void>;
  /**
   * True where the migration changes no memory's vector, status or derivation (what SQLite's HNSW graphs hold): the
   * snapshot sealed at the last clean close then still holds what the database holds, and is loaded as it is rather
   * than checked row by row (10–19 s of a first start at a million memories, BENCHMARKS.md).
   */
  leavesVectors?: boolean;
}

/** Every schema version in order. Names sort lexically; never edit one that has shipped, add the next. */
export const MIGRATIONS: Record<string, VersionedMigration> = {
  '0001_foundation': foundation,
  '0002_sessions': sessions,
  '0003_knowledgebase': knowledgebase,
  '0004_conversation': conversation,
  '0007_sandbox': sandbox,
  '0008_registries': registries,
  '0009_documents': documents,
  '0010_backlinks': backlinks,
  '0011_facts_out_of_keyword_index': factsOutOfKeywordIndex,
  '0012_keyword_scope_index': keywordScopeIndex,
  '0013_memory_versions': memoryVersions,
  '0014_checkpoint_revision': checkpointRevision,
  '0017_erasures': erasures,
  '0018_document_passages': documentPassages,
  '0019_task_claim_order': taskClaimOrder,
  '0020_task_backlog': taskBacklog,
  '0021_keyword_index_without_pending_list': keywordIndexWithoutPendingList,
  '0022_keyword_population_index': keywordPopulationIndex,
  '0023_provisional_workspaces': provisionalWorkspaces,
  '0024_mentioned_dates': mentionedDates,
  '0025_keyword_text': keywordText,
  '0026_keyword_text_southeast_asian': keywordTextSoutheastAsian,
  '0027_keyword_text_code': keywordTextCode,
  '0028_keyword_text_separators': keywordTextSeparators,
  '0029_keyword_text_compounds': keywordTextCompounds,
};

/** The schema versions this build knows, in order (what `memd doctor` compares a database against). */
export const MIGRATION_NAMES: readonly string[] = Object.keys(MIGRATIONS);

/** The schema memd's tables live in on PostgreSQL when no MEMD_DATABASE_SCHEMA names one. */
export const DEFAULT_POSTGRES_SCHEMA = 'public';

/** What a migration run did: whether every migration it ran left the vectors as they were (none ran: true). */
export interface MigrationRun {
  leftVectors: boolean;
}

/** Brings the database to the latest schema; throws with the failing migration's name. */
export async function migrateToLatest(db: Kysely<any>, dialect: SqlDialect, schema?: string): Promise<MigrationRun> {
  const migrations: Record<string, Migration> = {};
  for (const [name, migration] of Object.entries(MIGRATIONS)) {
    migrations[name] = { up: (kysely) => migration.up(kysely, dialect) };
  }
  // Naming the schema matters: without it Kysely finds a same-named bookkeeping table in any schema (on Postgres the
  // default one is named too, else a node migrating `public` took another schema's lock table for its own).
  // Unordered: numbers are handed to parallel branches up front, so a database may have run 0004 before 0003 merged.
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    allowUnorderedMigrations: true,
    ...(dialect === 'postgres' ? { migrationTableSchema: schema ?? DEFAULT_POSTGRES_SCHEMA } : {}),
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    throw new Error(`database migration ${failed} failed: ${error instanceof Error ? error.message : String(error)}`, {
      cause: error,
    });
  }
  const ran = (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
  return { leftVectors: ran.every((name) => MIGRATIONS[name]?.leavesVectors === true) };
}

import { existsSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Config } from '../config.js';
import { embedderMismatch, identityOf, readEmbedderIdentity } from '../core/embedder-identity.js';
import { createEmbeddingProvider, type EmbeddingProvider } from '../providers/embedding/index.js';
import { createLlmProvider } from '../providers/llm/index.js';
import { inspectStorage, type PostgresServerState, type StorageInspection } from '../storage/inspect.js';

export type CheckStatus = 'ok' | 'warn' | 'fail' | 'skip';

export interface CheckResult {
  check: string;
  status: CheckStatus;
  detail: string;
}

const result = (check: string, status: CheckStatus, detail: string): CheckResult => ({ check, status, detail });
const reason = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** Whether `dir` takes a file: written and removed, since only a write tells (a read-only mount refuses even root). */
function probeWrite(dir: string): void {
  const probe = join(dir, `.memd-doctor-${process.pid}`);
  writeFileSync(probe, '', { flag: 'wx' });
  unlinkSync(probe);
}

/** Where `dir` will be: it if it exists, else the parent that will hold it; either must take a file. */
function checkDirectory(dir: string): CheckResult {
  const name = 'data directory';
  let existing = dir;
  while (!existsSync(existing) && dirname(existing) !== existing) existing = dirname(existing);
  if (!statSync(existing).isDirectory()) return result(name, 'fail', `${existing} is not a directory`);
  try {
    probeWrite(existing);
  } catch (error) {
    return result(name, 'fail', `${existing} is not writable: ${reason(error)}`);
  }
  return result(
    name,
    'ok',
    existing === dir ? `${dir} is writable` : `${dir} does not exist yet; the first start creates it`,
  );
}

/** The data directory, and the SQLite file's own directory when MEMD_SQLITE_FILE puts it elsewhere. */
export function checkDataDirectory(config: Config): CheckResult {
  if (config.storage.kind === 'postgres')
    return result('data directory', 'skip', 'PostgreSQL storage keeps nothing in it');
  const checks = [...new Set([config.dataDir, dirname(config.storage.path)])].map(checkDirectory);
  return checks.find((check) => check.status === 'fail') ?? checks[0]!;
}

export async function checkStorage(
  config: Config,
): Promise<{ outcome: CheckResult; inspection: StorageInspection | null }> {
  const name = 'storage';
  let inspection: StorageInspection;
  try {
    inspection = await inspectStorage(config.storage);
  } catch (error) {
    const where = config.storage.kind === 'postgres' ? 'PostgreSQL (MEMD_DATABASE_URL)' : config.storage.path;
    return { outcome: result(name, 'fail', `cannot read ${where}: ${reason(error)}`), inspection: null };
  }
  const { engine, version, location, pending, unknown } = inspection;
  const where = `${engine} ${version} at ${location}`;
  const outcome =
    unknown.length > 0
      ? result(
          name,
          'fail',
          `${where} was migrated by a newer memd (schema versions this one does not know: ${unknown.join(', ')})`,
        )
      : !inspection.hasSchema
        ? result(name, 'ok', `${where}: no schema yet; the first start creates it`)
        : pending.length > 0
          ? result(
              name,
              'warn',
              `${where}: ${pending.length} schema versions not applied yet (${pending.join(', ')}); the next start applies them`,
            )
          : result(name, 'ok', `${where}: reachable, schema up to date`);
  return { outcome, inspection };
}

export async function checkEmbedder(config: Config, inspection: StorageInspection | null): Promise<CheckResult> {
  const name = 'embedder';
  let embedder: EmbeddingProvider | undefined;
  try {
    embedder = createEmbeddingProvider(config.embedding);
    await embedder.init();
    const [vector] = await embedder.embed(['memd doctor']);
    if (vector?.length !== embedder.dimensions)
      return result(
        name,
        'fail',
        `${embedder.name}/${embedder.model} answered ${vector?.length ?? 0} numbers, not ${embedder.dimensions}`,
      );
  } catch (error) {
    return result(name, 'fail', `MEMD_EMBEDDING_PROVIDER=${config.embedding.provider} does not load: ${reason(error)}`);
  } finally {
    await embedder?.close().catch(() => undefined);
  }
  const described = `${embedder.name}/${embedder.model} (${embedder.dimensions} dimensions)`;
  const mismatch = inspection
    ? embedderMismatch(
        await readEmbedderIdentity({ meta: { get: async (key) => inspection.meta[key] ?? null } }),
        identityOf(embedder),
      )
    : null;
  if (mismatch)
    return result(
      name,
      'fail',
      `${described} loads; ${mismatch}: a server would refuse to start (\`memd reembed\` converts the data)`,
    );
  return result(name, 'ok', `${described} loads and embeds`);
}

export async function checkLanguageModel(config: Config): Promise<CheckResult> {
  const name = 'language model';
  if (config.llm.provider === 'none') return result(name, 'skip', 'none configured (MEMD_LLM_PROVIDER)');
  try {
    // One short answer, no retries: reachable, key accepted, model known.
    const llm = createLlmProvider({ ...config.llm, maxRetries: 0, timeoutMs: Math.min(config.llm.timeoutMs, 30_000) })!;
    await llm.complete({ messages: [{ role: 'user', content: 'Reply with the single word OK.' }], maxOutputTokens: 8 });
    return result(name, 'ok', `${llm.name}/${llm.model} answers`);
  } catch (error) {
    return result(name, 'fail', `${config.llm.provider}/${config.llm.model} does not answer: ${reason(error)}`);
  }
}

/** The oldest pgvector that searches filtered queries fully (iterative HNSW scans; see storage/postgres/open.ts). */
const RECOMMENDED_PGVECTOR = '0.8.0';

const versionParts = (version: string): number[] => version.split('.').map((part) => Number.parseInt(part, 10) || 0);

function olderThan(version: string, wanted: string): boolean {
  const [have, want] = [versionParts(version), versionParts(wanted)];
  for (let i = 0; i < want.length; i++) if ((have[i] ?? 0) !== want[i]) return (have[i] ?? 0) < want[i]!;
  return false;
}

export function checkPgvector(config: Config, inspection: StorageInspection | null): CheckResult {
  const name = 'pgvector';
  if (config.storage.kind !== 'postgres') return result(name, 'skip', 'SQLite storage');
  if (!inspection?.pgvector) return result(name, 'skip', 'PostgreSQL not reachable');
  const { installed, available } = inspection.pgvector;
  const version = installed ?? available;
  if (!version)
    return result(
      name,
      'fail',
      `the vector extension is not installed on this PostgreSQL server (install pgvector ${RECOMMENDED_PGVECTOR} or newer)`,
    );
  const where = installed
    ? `${installed} installed`
    : `${available} available, not yet created in this database (the first start creates it, which needs the privilege to)`;
  if (olderThan(version, RECOMMENDED_PGVECTOR))
    return result(
      name,
      'warn',
      `${where}: older than ${RECOMMENDED_PGVECTOR}, filtered vector searches may return fewer results than asked`,
    );
  return result(name, 'ok', where);
}

const mebibytes = (bytes: number): string => `${Math.round(bytes / 2 ** 20).toLocaleString('en-US')} MiB`;

/**
 * Where the PostgreSQL server differs from docs/deploy.md's settings in a way a recall feels, one sentence each:
 * memd's tables larger than `shared_buffers` (their pages then come from outside PostgreSQL's cache), no pg_prewarm
 * to refill that cache after a restart (first-pass p99 100–113 ms instead of 61–68 at 100,000 memories after a cold
 * start, BENCHMARKS.md), huge pages off (ingest about a fifth slower). `huge_pages = try` is not reported: before
 * PostgreSQL 17 the server does not say whether it got them.
 */
export function postgresServerAdvice(server: PostgresServerState): string[] {
  const advice: string[] = [];
  if (server.dataBytes > server.sharedBuffersBytes)
    advice.push(
      `shared_buffers (${mebibytes(server.sharedBuffersBytes)}) is smaller than memd's tables and indexes (${mebibytes(server.dataBytes)}): recalls read pages from outside PostgreSQL's cache`,
    );
  if (!server.preloadedLibraries.some((library) => library.split('/').pop() === 'pg_prewarm'))
    advice.push('pg_prewarm is not in shared_preload_libraries: after a restart recalls start on an empty cache');
  if (server.hugePages === 'off') advice.push('huge_pages is off: ingest runs about a fifth slower');
  return advice;
}

/** The server's settings against docs/deploy.md's: a warning, never a failure (memd works either way, slower). */
export function checkPostgresServer(config: Config, inspection: StorageInspection | null): CheckResult {
  const name = 'postgres server';
  if (config.storage.kind !== 'postgres') return result(name, 'skip', 'SQLite storage');
  if (!inspection?.server) return result(name, 'skip', 'PostgreSQL not reachable');
  const advice = postgresServerAdvice(inspection.server);
  if (advice.length > 0) return result(name, 'warn', `${advice.join('; ')} (docs/deploy.md, "Server settings")`);
  return result(
    name,
    'ok',
    `shared_buffers ${mebibytes(inspection.server.sharedBuffersBytes)} holds memd's ${mebibytes(inspection.server.dataBytes)}; pg_prewarm preloaded; huge_pages ${inspection.server.hugePages}`,
  );
}

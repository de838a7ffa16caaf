import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { DOCTOR_EXIT } from '../../src/cli/doctor-exit.js';
import { openPostgresStorage } from '../../src/storage/postgres/open.js';
import { closedPort, runCli } from '../support/cli.js';
import { freshSchema } from '../support/postgres.js';
import { client, startServer } from '../support/server.js';
import { testDatabaseUrl } from '../support/test-database.js';

const scratch = mkdtempSync(join(tmpdir(), 'memd-doctor-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

interface Check {
  check: string;
  status: 'ok' | 'warn' | 'fail' | 'skip';
  detail: string;
}

/** `memd doctor --json` with the hash embedder and the given settings: its exit status and each check by name. */
async function doctor(env: Record<string, string>, args: string[] = []) {
  const result = await runCli(['doctor', '--json', ...args], { env: { MEMD_EMBEDDING_PROVIDER: 'hash', ...env } });
  const report = JSON.parse(result.stdout) as { exit_code: number; checks: Check[] };
  expect(report.exit_code).toBe(result.code);
  return {
    code: result.code,
    checks: Object.fromEntries(report.checks.map((check) => [check.check, check])) as Record<string, Check>,
  };
}

describe('memd doctor', () => {
  it('passes on a fresh data directory, and prints one line per check', async () => {
    const dataDir = join(scratch, 'fresh');
    const result = await runCli(['doctor', '--data-dir', dataDir], { env: { MEMD_EMBEDDING_PROVIDER: 'hash' } });
    expect(result.code, result.stdout).toBe(0);
    expect(result.stdout.trimEnd().split('\n')).toEqual([
      'ok    configuration   sqlite storage, hash embedder, language model: none',
      `ok    data directory  ${dataDir} does not exist yet; the first start creates it`,
      expect.stringMatching(
        new RegExp(
          `^ok    storage         sqlite [\\d.]+ at ${join(dataDir, 'memd.sqlite')}: no schema yet; the first start creates it$`,
        ),
      ),
      'ok    embedder        hash/feature-hash-v1 (256 dimensions) loads and embeds',
      'skip  language model  none configured (MEMD_LLM_PROVIDER)',
      'skip  pgvector        SQLite storage',
      'skip  postgres server SQLite storage',
    ]);
  });

  it('reads the data directory of a running server without disturbing it, and finds an embedder that does not match its vectors', async () => {
    const server = await startServer();
    try {
      await client(server.url).post('/v1/memories', { content: 'Checked while the server runs.' });
      const good = await doctor({ MEMD_DATA_DIR: server.dataDir });
      expect(good.code).toBe(0);
      expect(good.checks.storage).toMatchObject({
        status: 'ok',
        detail: expect.stringContaining('reachable, schema up to date'),
      });

      const changed = await doctor({ MEMD_DATA_DIR: server.dataDir, MEMD_EMBEDDING_DIMENSIONS: '64' });
      expect(changed.code).toBe(DOCTOR_EXIT.embedder);
      expect(changed.checks.embedder).toMatchObject({
        status: 'fail',
        detail: expect.stringMatching(/\(256 dimensions\).*\(64 dimensions\).*memd reembed/),
      });
      expect(
        (await client(server.url).post('/v1/memories/recall', { query: 'checked while running' })).body.memories,
      ).toHaveLength(1);
    } finally {
      await server.stop();
    }
  });

  it('exits with the sum of what failed: PostgreSQL unreachable (8) and the language model unreachable (32)', async () => {
    const port = await closedPort();
    const postgres = {
      MEMD_STORAGE: 'postgres',
      MEMD_DATABASE_URL: `postgres://memd:secret@127.0.0.1:${port}/memd`,
      MEMD_DATA_DIR: join(scratch, 'pg'),
    };
    const storageOnly = await doctor(postgres);
    expect(storageOnly.code).toBe(DOCTOR_EXIT.storage);
    expect(storageOnly.checks.storage).toMatchObject({
      status: 'fail',
      detail: expect.stringContaining('ECONNREFUSED'),
    });
    expect(storageOnly.checks.storage!.detail).not.toContain('secret');
    expect(storageOnly.checks.pgvector).toMatchObject({ status: 'skip' });
    expect(storageOnly.checks['postgres server']).toMatchObject({ status: 'skip', detail: 'PostgreSQL not reachable' });
    expect(storageOnly.checks['data directory']).toMatchObject({
      status: 'skip',
      detail: 'PostgreSQL storage keeps nothing in it',
    });

    const llm = {
      MEMD_LLM_PROVIDER: 'openai',
      MEMD_LLM_MODEL: 'small',
      MEMD_LLM_BASE_URL: `http://127.0.0.1:${port}/v1`,
    };
    const both = await doctor({ ...postgres, ...llm });
    expect(both.code).toBe(DOCTOR_EXIT.storage + DOCTOR_EXIT.languageModel);
    expect(both.checks['language model']).toMatchObject({ status: 'fail' });
  });

  it('exits 3 on a configuration it cannot read, and 4 when the data directory cannot be written', async () => {
    const invalid = await doctor({ MEMD_STORAGE: 'oracle' });
    expect(invalid.code).toBe(DOCTOR_EXIT.configuration);
    expect(invalid.checks.configuration).toMatchObject({
      status: 'fail',
      detail: expect.stringContaining('MEMD_STORAGE must be one of sqlite, postgres'),
    });

    const file = join(scratch, 'a-file');
    writeFileSync(file, '');
    const unwritable = await doctor({}, ['--data-dir', join(file, 'data')]);
    expect(unwritable.code).toBe(DOCTOR_EXIT.dataDirectory);
    expect(unwritable.checks['data directory']).toMatchObject({ status: 'fail', detail: `${file} is not a directory` });
  });

  it('on PostgreSQL: no schema yet, up to date, versions to apply (a warning), versions it does not know (a failure), and the pgvector version', async () => {
    const url = testDatabaseUrl();
    const schema = freshSchema();
    const env = { MEMD_STORAGE: 'postgres', MEMD_DATABASE_URL: url, MEMD_DATABASE_SCHEMA: schema };
    const sql = new pg.Client({ connectionString: url });
    await sql.connect();
    try {
      const empty = await doctor(env);
      expect(empty.code).toBe(0);
      expect(empty.checks.storage).toMatchObject({
        status: 'ok',
        detail: expect.stringMatching(
          /^postgres [\d.]+.* at postgres:\/\/\S+: no schema yet; the first start creates it$/,
        ),
      });

      const storage = await openPostgresStorage({ url, poolSize: 1, dimensions: 256, schema });
      await storage.close();
      const migrated = await doctor(env);
      expect(migrated.code).toBe(0);
      expect(migrated.checks.storage).toMatchObject({
        status: 'ok',
        detail: expect.stringContaining('reachable, schema up to date'),
      });
      expect(migrated.checks.pgvector).toMatchObject({
        status: 'ok',
        detail: expect.stringMatching(/^0\.\d+\.\d+ installed$/),
      });
      // The test server runs PostgreSQL's defaults, not docs/deploy.md's: advice, and still exit 0.
      expect(migrated.checks['postgres server']).toMatchObject({
        status: 'warn',
        detail: expect.stringContaining('pg_prewarm is not in shared_preload_libraries'),
      });
      expect(migrated.checks['postgres server']!.detail).not.toContain('shared_buffers (');

      await sql.query(`DELETE FROM ${schema}.kysely_migration WHERE name = '0014_checkpoint_revision'`);
      const behind = await doctor(env);
      expect(behind.code).toBe(0);
      expect(behind.checks.storage).toMatchObject({
        status: 'warn',
        detail: expect.stringContaining(
          '1 schema versions not applied yet (0014_checkpoint_revision); the next start applies them',
        ),
      });
      await sql.query(
        `INSERT INTO ${schema}.kysely_migration (name, timestamp) VALUES ('9999_from_the_future', '2030-01-01')`,
      );
      const ahead = await doctor(env);
      expect(ahead.code).toBe(DOCTOR_EXIT.storage);
      expect(ahead.checks.storage).toMatchObject({
        status: 'fail',
        detail: expect.stringContaining(
          'migrated by a newer memd (schema versions this one does not know: 9999_from_the_future)',
        ),
      });
    } finally {
      await sql.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await sql.end();
    }
  });
});

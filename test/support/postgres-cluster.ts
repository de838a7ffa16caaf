import { execFile, execFileSync } from 'node:child_process';
import { appendFileSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

/**
 * A throwaway PostgreSQL server for tests: initdb into a temp dir, started with pg_ctl on a free loopback port, trust
 * authentication on loopback only, removed on stop. Needs only the server binaries (`../shared/tools/install-postgres`
 * installs PostgreSQL 15 with pgvector); no system service is touched. PostgreSQL refuses to run as root, so under
 * root (CI) every server command runs as the `postgres` user.
 *
 * Plain Node (no vitest import): the global setup runs it in vitest's main process, and tests that must stop the
 * database under running nodes start a cluster of their own with it.
 */
export interface PostgresCluster {
  /** `postgres://postgres@127.0.0.1:<port>/postgres` */
  url: string;
  port: number;
  /** Stops the server, keeping the data (`start` brings it back on the same port). Immediate: as if it crashed. */
  halt(): Promise<void>;
  start(): Promise<void>;
  /** Stops the server and removes its data directory. */
  stop(): Promise<void>;
}

const run = promisify(execFile);

/** Where `initdb` and `pg_ctl` are: `MEMD_TEST_PG_BINDIR`, else the newest /usr/lib/postgresql/<major>/bin. */
export function postgresBinDir(): string | null {
  const configured = process.env.MEMD_TEST_PG_BINDIR;
  if (configured) return existsSync(join(configured, 'pg_ctl')) ? configured : null;
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const majors = readdirSync(root)
    .filter((v) => /^\d+$/.test(v) && existsSync(join(root, v, 'bin', 'pg_ctl')))
    .sort((a, b) => Number(b) - Number(a));
  return majors[0] ? join(root, majors[0], 'bin') : null;
}

const MISSING_SERVER =
  'PostgreSQL server binaries were not found (looked in MEMD_TEST_PG_BINDIR and /usr/lib/postgresql/<major>/bin). ' +
  'Install PostgreSQL 15 with pgvector (../shared/tools/install-postgres does both on Debian), ' +
  'or set MEMD_TEST_DATABASE_URL=postgres://… to run the tests against a server of your own.';

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** The server will not run as root: under root, commands run as `postgres`, which must own the directory. */
function asServerUser(): { wrap: (bin: string, args: string[]) => [string, string[]]; own: (path: string) => void } {
  if (process.getuid?.() !== 0) return { wrap: (bin, args) => [bin, args], own: () => undefined };
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
  const [uid, gid] = [id('-u'), id('-g')];
  return {
    wrap: (bin, args) => ['runuser', ['-u', 'postgres', '--', bin, ...args]],
    own: (path) => chownSync(path, uid, gid),
  };
}

export interface ClusterOptions {
  /**
   * Keep fsync and full-page writes on, as a production server has them (the tests turn both off: nothing of theirs
   * must survive an OS crash). Benchmarks want them on.
   */
  durable?: boolean;
  /** More `postgresql.conf` lines, e.g. `shared_buffers = '2GB'`. */
  settings?: string[];
}

export async function startPostgresCluster(options: ClusterOptions = {}): Promise<PostgresCluster> {
  const bin = postgresBinDir();
  if (!bin) throw new Error(MISSING_SERVER);
  const user = asServerUser();
  const exec = async (tool: string, args: string[]) => {
    const [file, argv] = user.wrap(join(bin, tool), args);
    try {
      await run(file, argv, { cwd: tmpdir() });
    } catch (error) {
      const e = error as Error & { stderr?: string };
      throw new Error(`${tool} ${args.join(' ')} failed: ${e.stderr || e.message}`, { cause: error });
    }
  };

  const dir = mkdtempSync(join(tmpdir(), 'memd-postgres-'));
  const data = join(dir, 'data');
  const log = join(dir, 'server.log');
  user.own(dir);
  try {
    // C collation: text sorts by bytes, as SQLite compares it; --no-sync: a throwaway cluster.
    await exec('initdb', [
      '-D',
      data,
      '-U',
      'postgres',
      '--auth=trust',
      '--encoding=UTF8',
      '--no-locale',
      '--no-sync',
      '--no-instructions',
    ]);
    const port = await freePort();
    // Trust, but only over loopback and this cluster's own socket directory.
    writeFileSync(join(data, 'pg_hba.conf'), 'local all all trust\nhost all all 127.0.0.1/32 trust\n');
    appendFileSync(
      join(data, 'postgresql.conf'),
      [
        `port = ${port}`,
        "listen_addresses = '127.0.0.1'",
        `unix_socket_directories = '${dir}'`,
        // Many test files, each with nodes that hold pools, share one server.
        'max_connections = 400',
        // Tests never survive an OS crash, so skip fsync; commits still reach the WAL before they return, so a
        // server killed on purpose (halt) keeps every acknowledged write.
        ...(options.durable ? [] : ['fsync = off', 'full_page_writes = off']),
        "log_min_messages = 'warning'",
        ...(options.settings ?? []),
        '',
      ].join('\n'),
    );
    const start = () => exec('pg_ctl', ['-D', data, '-l', log, '-w', '-t', '60', 'start']);
    await start();
    let stopped = false;
    const halt = () => exec('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
    // A test run that dies without its teardown must not leave a server running.
    const onExit = () => {
      if (stopped) return;
      try {
        const [file, argv] = user.wrap(join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop']);
        execFileSync(file, argv, { stdio: 'ignore', cwd: tmpdir() });
      } catch {
        // already stopped
      }
      rmSync(dir, { recursive: true, force: true });
    };
    process.once('exit', onExit);
    return {
      url: `postgres://postgres@127.0.0.1:${port}/postgres`,
      port,
      halt,
      start,
      async stop() {
        if (stopped) return;
        stopped = true;
        process.off('exit', onExit);
        await halt().catch(() => undefined);
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}

import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp, type MemdApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import type { Clock } from '../../src/core/clock.js';
import type { EmbeddingProvider } from '../../src/providers/embedding/types.js';
import type { LlmProvider } from '../../src/providers/llm/types.js';
import { testBackend, testDatabaseUrl } from './test-database.js';

export interface TestServer {
  url: string;
  app: MemdApp;
  dataDir: string;
  /** Where this server keeps its data, as settings: a process given them (a CLI, a second node) opens the same store. */
  storageEnv: Record<string, string>;
  /** Runs every queued background task now (enrichment, expiry, …). */
  drainTasks(): Promise<number>;
  stop(): Promise<void>;
}

export interface TestServerOptions {
  env?: Record<string, string>;
  clock?: Clock;
  embedder?: EmbeddingProvider;
  llm?: LlmProvider | null;
  /** Keep the data directory after stop (restart tests). */
  dataDir?: string;
  /** Start the background task runner (default false: tests drain tasks explicitly). */
  backgroundTasks?: boolean;
  /** Collects the server's log lines (at info level) instead of discarding them. */
  logs?: LogCapture;
}

/** Log lines of a test server, parsed. */
export class LogCapture {
  readonly lines: Array<Record<string, unknown>> = [];
  write(line: string): void {
    this.lines.push(JSON.parse(line) as Record<string, unknown>);
  }
  /** The lines whose message is `msg`. */
  withMessage(msg: string): Array<Record<string, unknown>> {
    return this.lines.filter((line) => line.msg === msg);
  }
}

/** A secret key for servers on Postgres, which keeps no key file (any 32 bytes: test data only). */
const TEST_SECRET_KEY = Buffer.alloc(32, 7).toString('hex');

/** The settings that put memd on the run's PostgreSQL server, in `schema`: for a test server or a node process. */
export function postgresStorageEnv(schema: string): Record<string, string> {
  return {
    MEMD_STORAGE: 'postgres',
    MEMD_DATABASE_URL: testDatabaseUrl(),
    MEMD_DATABASE_SCHEMA: schema,
    MEMD_SECRET_KEY: TEST_SECRET_KEY,
  };
}

/**
 * The storage a test server (or a memd process a test spawns) runs on. SQLite: a file in the data directory.
 * Postgres (`MEMD_TEST_BACKEND=postgres`): the run's real server, in a schema named after the data directory, so a
 * restart on the same directory finds its data again and every other server gets a schema of its own.
 */
export function storageEnv(dataDir: string): Record<string, string> {
  if (testBackend() === 'sqlite') return { MEMD_DATA_DIR: dataDir };
  return { MEMD_DATA_DIR: dataDir, ...postgresStorageEnv(`t_${createHash('sha256').update(dataDir).digest('hex').slice(0, 16)}`) };
}

/**
 * A real memd server on an ephemeral port over a fresh data directory, with the hash embedder by default: on SQLite,
 * or on the run's PostgreSQL server when `MEMD_TEST_BACKEND=postgres` (the `postgres` project in vitest.config.ts).
 * Settings in `options.env` win, so a test may still pin its own storage.
 */
export async function startServer(options: TestServerOptions = {}): Promise<TestServer> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'memd-test-'));
  const storage = { ...storageEnv(dataDir), ...pickStorage(options.env) };
  const config = loadConfig({
    ...storage,
    MEMD_EMBEDDING_PROVIDER: 'hash',
    MEMD_HOST: '127.0.0.1',
    MEMD_PORT: '0',
    // A server that never runs Python never loads an interpreter; context tests ask for `start`.
    MEMD_SANDBOX_SPARE: 'first-use',
    ...options.env,
  });
  const app = await createApp(config, {
    logLevel: options.logs ? 'info' : (process.env.MEMD_TEST_LOG ?? 'silent'),
    ...(options.logs && { logDestination: options.logs }),
    ...(options.clock && { clock: options.clock }),
    ...(options.embedder && { embedder: options.embedder }),
    ...(options.llm !== undefined && { llm: options.llm }),
  });
  const url = await app.listen(0);
  await app.ready();
  // Deterministic tests: background work runs when a test drains it, unless asked otherwise.
  if (!options.backgroundTasks) await app.services.tasks.stop();
  return {
    url,
    app,
    dataDir,
    storageEnv: storage,
    drainTasks: () => app.services.tasks.drain(),
    async stop() {
      await app.close();
      // A Postgres schema stays: dropping it while other files start servers fails their migrations (Kysely's
      // table lookup reads every schema of the database), and the run's server is removed at the end anyway.
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

const STORAGE_SETTINGS = ['MEMD_DATA_DIR', 'MEMD_STORAGE', 'MEMD_DATABASE_URL', 'MEMD_DATABASE_SCHEMA', 'MEMD_DATABASE_POOL_SIZE', 'MEMD_SECRET_KEY'];
const pickStorage = (env: Record<string, string> = {}): Record<string, string> =>
  Object.fromEntries(Object.entries(env).filter(([key]) => STORAGE_SETTINGS.includes(key)));

export interface ApiResponse<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

/** A small HTTP client for tests: JSON in, JSON (or text) out, never throws on 4xx/5xx. */
export function client(baseUrl: string, defaultHeaders: Record<string, string> = {}) {
  const call = async <T = any>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<ApiResponse<T>> => {
    const init: RequestInit = { method, headers: { ...defaultHeaders, ...headers } };
    if (body !== undefined) {
      init.body = typeof body === 'string' ? body : JSON.stringify(body);
      (init.headers as Record<string, string>)['content-type'] ??= 'application/json';
    }
    const response = await fetch(`${baseUrl}${path}`, init);
    const text = await response.text();
    let parsed: unknown = text;
    if ((response.headers.get('content-type') ?? '').includes('application/json') && text) parsed = JSON.parse(text);
    return { status: response.status, body: parsed as T, headers: response.headers };
  };
  return {
    get: <T = any>(path: string, headers?: Record<string, string>) => call<T>('GET', path, undefined, headers),
    post: <T = any>(path: string, body?: unknown, headers?: Record<string, string>) => call<T>('POST', path, body ?? {}, headers),
    put: <T = any>(path: string, body: unknown, headers?: Record<string, string>) => call<T>('PUT', path, body, headers),
    delete: <T = any>(path: string, headers?: Record<string, string>) => call<T>('DELETE', path, undefined, headers),
    raw: call,
  };
}

export type Client = ReturnType<typeof client>;

/** A clock tests move by hand. */
export class ManualClock implements Clock {
  constructor(private current = new Date('2026-03-01T12:00:00.000Z')) {}
  now(): Date {
    return new Date(this.current);
  }
  advance(ms: number): void {
    this.current = new Date(this.current.getTime() + ms);
  }
}

export interface TwoTeams {
  server: TestServer;
  /** Authenticated with the admin key. */
  admin: Client;
  /** A key whose only workspace is `team-a` (`team-b` exists too). */
  keyA: Client;
}

/** A server with auth on, workspaces `team-a` and `team-b`, and clients for the admin and for a `team-a` key. */
export async function startTwoTeams(): Promise<TwoTeams> {
  const adminKey = 'admin-secret-for-tests';
  const server = await startServer({ env: { MEMD_ADMIN_KEY: adminKey } });
  const admin = client(server.url, { authorization: `Bearer ${adminKey}` });
  await admin.post('/v1/workspaces', { id: 'team-a', name: 'A' });
  await admin.post('/v1/workspaces', { id: 'team-b', name: 'B' });
  const issued = await admin.post('/v1/api-keys', { name: 'a', workspaces: ['team-a'] });
  return { server, admin, keyA: client(server.url, { authorization: `Bearer ${issued.body.api_key.key}` }) };
}

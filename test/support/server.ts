import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemdClient, MemdError, type ClientOptions, type RequestOptions } from '../../packages/client/src/index.js';
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
  return {
    MEMD_DATA_DIR: dataDir,
    ...postgresStorageEnv(`t_${createHash('sha256').update(dataDir).digest('hex').slice(0, 16)}`),
  };
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
      // A Postgres schema stays: dropping it while other files started servers failed their migrations when Kysely's
      // table lookup read every schema of the database (it reads only its own since SchemaIntrospector; dropping
      // was not tried again), and the run's server is removed at the end anyway.
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

const STORAGE_SETTINGS = [
  'MEMD_DATA_DIR',
  'MEMD_STORAGE',
  'MEMD_DATABASE_URL',
  'MEMD_DATABASE_SCHEMA',
  'MEMD_DATABASE_POOL_SIZE',
  'MEMD_SECRET_KEY',
];
const pickStorage = (env: Record<string, string> = {}): Record<string, string> =>
  Object.fromEntries(Object.entries(env).filter(([key]) => STORAGE_SETTINGS.includes(key)));

export interface ApiResponse<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

/** Longer than any test's own timeout: the test, not the client, decides when a request has taken too long. */
const TEST_CLIENT_TIMEOUT_MS = 10 * 60_000;

/**
 * The typed client (`memd-client`) as tests use it: retries off, so that a test sees a 429 or a 503 itself, and no
 * timeout shorter than the test's own.
 */
export function memdClient(baseUrl: string, options: Omit<ClientOptions, 'baseUrl'> = {}): MemdClient {
  return new MemdClient({
    timeoutMs: TEST_CLIENT_TIMEOUT_MS,
    ...options,
    baseUrl,
    retry: { retries: 0, ...options.retry },
  });
}

/** A new workspace `id` holding `notes`, written in one batch in their order; its id. */
export async function workspaceOfNotes(memd: MemdClient, id: string, notes: readonly string[]): Promise<string> {
  const workspace = (await memd.workspaces.create({ id, name: id })).workspace.id;
  await memd.memories.batch({
    workspace_id: workspace,
    operations: notes.map((content) => ({ op: 'create' as const, content })),
  });
  return workspace;
}

/** The error a typed call failed with; a call that succeeds fails the test. */
export async function failureOf(call: Promise<unknown>): Promise<MemdError> {
  try {
    await call;
  } catch (error) {
    if (error instanceof MemdError) return error;
    throw error;
  }
  throw new Error('the call succeeded; a failure was expected');
}

/**
 * A small untyped client for tests, for requests the API's types would refuse and for reading any status: JSON in,
 * JSON (or text) out, never throws on 4xx/5xx. It sends through the client package's `request`, so every request of
 * the API tests goes through the package's transport. A string body goes as it is, as JSON unless `headers` say
 * otherwise; `raw` without a body sends none.
 */
export function client(baseUrl: string, defaultHeaders: Record<string, string> = {}) {
  const memd = memdClient(baseUrl, { headers: defaultHeaders });
  const call = async <T = any>(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<ApiResponse<T>> => {
    const sent: RequestOptions =
      body === undefined
        ? { headers }
        : typeof body === 'string'
          ? { body, headers: { 'content-type': 'application/json', ...headers } }
          : { json: body, headers };
    const answer = await memd.request<T>(method, path, sent);
    // An empty body reads as '' (the package answers undefined), as tests have always seen it.
    return { status: answer.status, body: answer.data ?? ('' as T), headers: answer.headers };
  };
  return {
    get: <T = any>(path: string, headers?: Record<string, string>) => call<T>('GET', path, undefined, headers),
    post: <T = any>(path: string, body?: unknown, headers?: Record<string, string>) =>
      call<T>('POST', path, body ?? {}, headers),
    put: <T = any>(path: string, body: unknown, headers?: Record<string, string>) =>
      call<T>('PUT', path, body, headers),
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

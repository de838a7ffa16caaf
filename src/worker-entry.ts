import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ResourceLimits } from 'node:worker_threads';
import type * as Esbuild from 'esbuild';
import { Piscina } from 'piscina';

/**
 * Where a worker thread's script lives and how to start it, for a pool (piscina) and a plain `Worker` alike. Built
 * code runs `.js` as is. When the service runs from TypeScript sources (tests, `npm run dev`) the thread runs a
 * JavaScript bundle of the script's own modules instead (`bundledScript`), so that it needs no TypeScript loader of
 * its own. No flags of the process either: a thread inherits them by default, and a loader the process was started
 * with (tsx's, an agent's) broke Pyodide's own module loading in the sandbox's thread.
 */
export function workerEntry(scriptUrl: URL): { filename: string; execArgv: string[] } {
  const filename = scriptUrl.pathname.endsWith('.ts')
    ? bundledScript(fileURLToPath(scriptUrl))
    : fileURLToPath(scriptUrl);
  return { filename, execArgv: [] };
}

/** The URL of a sibling module, keeping the extension of the calling module (`.ts` in dev, `.js` when built). */
export function siblingModule(callerUrl: string, basename: string): URL {
  const extension = callerUrl.endsWith('.ts') ? '.ts' : '.js';
  return new URL(`./${basename}${extension}`, callerUrl);
}

/**
 * Bundles are written inside the checkout, so that the packages they import (left out of the bundle) resolve from
 * its node_modules as the sources' imports do.
 */
const BUNDLE_DIRECTORY = fileURLToPath(new URL('../node_modules/.cache/memd-workers/', import.meta.url));
const bundles = new Map<string, string>();

/**
 * A TypeScript worker script and the modules of ours it imports as one JavaScript file (packages stay imports),
 * built once per process with esbuild, the compiler tsx itself uses. A thread that registered tsx instead started
 * in 0.27-0.31 s against 0.06-0.08 s for a built module, and a sandbox's first call took 1.6 s against 0.9 s
 * (NOTES.md, "Tests and CI"): every SQLite storage starts two reader threads and every sandbox a thread, so a
 * test run paid for it hundreds of times. The file is named by its content, written under a temporary name and
 * renamed, so processes building the same bundle at once never read a partial one.
 */
function bundledScript(scriptPath: string): string {
  const known = bundles.get(scriptPath);
  if (known) return known;
  // Only a checkout runs TypeScript, and a checkout has its development dependencies: built code never gets here.
  const esbuild = createRequire(import.meta.url)('esbuild') as typeof Esbuild;
  const built = esbuild.buildSync({
    entryPoints: [scriptPath],
    bundle: true,
    packages: 'external',
    platform: 'node',
    format: 'esm',
    target: 'node20',
    write: false,
    logLevel: 'silent',
  });
  const code = built.outputFiles[0]!.contents;
  const digest = createHash('sha256').update(code).digest('hex').slice(0, 16);
  const path = join(BUNDLE_DIRECTORY, `${basename(scriptPath, '.ts')}-${digest}.mjs`);
  if (!existsSync(path)) {
    mkdirSync(BUNDLE_DIRECTORY, { recursive: true });
    const partial = `${path}.${process.pid}.${Date.now()}.partial`;
    writeFileSync(partial, code);
    renameSync(partial, path);
  }
  bundles.set(scriptPath, path);
  return path;
}

/**
 * One worker thread for a module's default export, started on first use and stopped after a minute idle. Tasks
 * run one at a time (queued): CPU work that must not hold the event loop, with the CPU it takes bounded, and the
 * memory too when `resourceLimits` are given (a task that needs more ends the thread with ERR_WORKER_OUT_OF_MEMORY).
 */
export class LazyWorker {
  #pool: Piscina | undefined;

  constructor(
    private readonly script: URL,
    private readonly options: { resourceLimits?: ResourceLimits } = {},
  ) {}

  /** Runs the task in the thread; aborting `signal` rejects and terminates the thread. */
  run(task: unknown, options: { signal?: AbortSignal } = {}): Promise<unknown> {
    if (!this.#pool) {
      const { filename, execArgv } = workerEntry(this.script);
      this.#pool = new Piscina({
        filename,
        execArgv,
        minThreads: 0,
        maxThreads: 1,
        idleTimeout: 60_000,
        ...this.options,
      });
    }
    return this.#pool.run(task, options);
  }

  /**
   * Lets the thread go once the tasks it has finish, so that the memory its heap grew to returns to the system;
   * the next task starts a fresh one.
   */
  discard(): void {
    const pool = this.#pool;
    this.#pool = undefined;
    void pool?.close().catch(() => undefined);
  }

  async close(): Promise<void> {
    const pool = this.#pool;
    this.#pool = undefined;
    await pool?.destroy();
  }
}

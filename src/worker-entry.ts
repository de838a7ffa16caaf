import { fileURLToPath } from 'node:url';
import type { ResourceLimits } from 'node:worker_threads';
import { Piscina } from 'piscina';

/**
 * Where a worker thread's script lives and how to start it. Built code runs `.js` as is; when the
 * service runs from TypeScript sources (tests, `npm run dev`) the worker needs the tsx loader too.
 */
export function workerEntry(scriptUrl: URL): { filename: string; execArgv: string[] } {
  const filename = fileURLToPath(scriptUrl);
  return { filename, execArgv: filename.endsWith('.ts') ? ['--import', 'tsx'] : [] };
}

/** The URL of a sibling module, keeping the extension of the calling module (`.ts` in dev, `.js` when built). */
export function siblingModule(callerUrl: string, basename: string): URL {
  const extension = callerUrl.endsWith('.ts') ? '.ts' : '.js';
  return new URL(`./${basename}${extension}`, callerUrl);
}

/**
 * What to hand `new Worker(...)` for a module (from `siblingModule`). Built code starts the `.js`
 * file directly. A plain worker loads its entry module before `--import tsx` hooks take effect (a
 * pool such as piscina imports the task later, so `workerEntry` suffices there); for `.ts` the
 * entry is a small bootstrap that registers tsx and then imports the module.
 */
export function plainWorkerScript(scriptUrl: URL): URL {
  if (!scriptUrl.pathname.endsWith('.ts')) return scriptUrl;
  const tsxApi = import.meta.resolve('tsx/esm/api');
  const bootstrap = `const { register } = await import(${JSON.stringify(tsxApi)}); register(); await import(${JSON.stringify(scriptUrl.href)});`;
  return new URL(`data:text/javascript,${encodeURIComponent(bootstrap)}`);
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

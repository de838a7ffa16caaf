import type { SandboxSpare } from '../config.js';
import { startSandboxWorker } from './boot-image.js';
import type { SandboxWorker, WorkerLimits } from './sandbox-worker.js';
import type { SandboxLogger } from './types.js';

/**
 * One interpreter loaded ahead of need, so that a new session does not wait for a start (about 1.1 s from the boot
 * image, boot-image.ts; about 3 s for a process's first, which boots Python). With `start` it loads when the pool is
 * made; with `first-use` after the first worker is taken; with `off` never.
 * Why `first-use` is the default: NOTES.md, "Context environment", spare interpreter.
 */
export class SparePool {
  private spare: Promise<SandboxWorker> | undefined;
  private closed = false;

  constructor(
    private readonly limits: WorkerLimits,
    private readonly mode: SandboxSpare,
    private readonly logger: SandboxLogger,
  ) {
    if (mode === 'start') this.refill();
  }

  /** Loads the spare now unless spares are off; resolves once it is loaded (benchmarks, tests). */
  async warmUp(): Promise<void> {
    if (!this.spare && this.mode !== 'off' && !this.closed) this.refill();
    await this.spare;
  }

  /** The spare if it is usable, else a cold start; then the next spare starts loading. */
  async take(): Promise<SandboxWorker> {
    const spare = this.spare;
    this.spare = undefined;
    try {
      const worker = await spare?.catch(() => undefined);
      return worker?.alive ? worker : await startSandboxWorker(this.limits, this.logger);
    } finally {
      if (!this.closed && !this.spare && this.mode !== 'off') this.refill();
    }
  }

  /** No spare is loaded from now on; the one held is stopped. */
  async close(): Promise<void> {
    this.closed = true;
    const spare = this.spare;
    this.spare = undefined;
    await spare?.then((worker) => worker.terminate()).catch(() => {});
  }

  private refill(): void {
    const spare = startSandboxWorker(this.limits, this.logger);
    spare.catch((error: unknown) => this.logger.warn({ error: String(error) }, 'sandbox spare worker failed to start'));
    this.spare = spare;
  }
}

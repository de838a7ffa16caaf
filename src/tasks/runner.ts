import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyBaseLogger } from 'fastify';
import { addMs, isoNow, type Clock } from '../core/clock.js';
import type { CoreEvents } from '../core/events.js';
import type { Storage, Task } from '../storage/types.js';

/** Does one task's work. Must be idempotent: a task whose worker died mid-way runs again after its lease. */
export type TaskHandler = (task: Task) => Promise<void>;

export interface TaskRunnerOptions {
  concurrency: number;
  pollIntervalMs: number;
  leaseMs: number;
  maxAttempts: number;
}

const MAX_BACKOFF_MS = 5 * 60_000;

/**
 * Runs queued tasks from the database: leases a few at a time, retries failures with exponential backoff, and on
 * stop lets running tasks finish. Several processes over one Postgres database share the queue safely.
 */
export class TaskRunner {
  private readonly handlers = new Map<string, TaskHandler>();
  private running = false;
  private loop: Promise<void> | null = null;
  private readonly inFlight = new Set<Promise<void>>();
  private readonly runningIds = new Set<number>();
  private heartbeat: NodeJS.Timeout | null = null;
  private wake: (() => void) | null = null;
  private readonly unsubscribe: () => void;

  constructor(
    private readonly storage: Storage,
    private readonly clock: Clock,
    events: CoreEvents,
    private readonly options: TaskRunnerOptions,
    private readonly log: Pick<FastifyBaseLogger, 'warn' | 'error'>,
  ) {
    this.unsubscribe = events.onTasksQueued(() => this.wake?.());
  }

  register(kind: string, handler: TaskHandler): void {
    if (this.handlers.has(kind)) throw new Error(`a handler for task kind '${kind}' is already registered`);
    this.handlers.set(kind, handler);
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
    // Leases stay short so a crashed worker's tasks return soon; a live worker renews those it is running.
    this.heartbeat = setInterval(() => void this.renewLeases(), Math.max(250, Math.floor(this.options.leaseMs / 3)));
    this.heartbeat.unref();
  }

  private async renewLeases(): Promise<void> {
    if (this.runningIds.size === 0) return;
    const until = addMs(isoNow(this.clock), this.options.leaseMs);
    await this.storage.tasks.extendLeases([...this.runningIds], until).catch((error: unknown) => this.report('renewing task leases failed', error));
  }

  /** Stops claiming new tasks and waits for the running ones. Unclaimed tasks stay queued in the database. */
  async stop(): Promise<void> {
    this.running = false;
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.wake?.();
    await this.loop;
    await Promise.allSettled([...this.inFlight]);
    this.unsubscribe();
  }

  /** Runs every task that is due until none is left (tests, CLI). Returns how many ran. */
  async drain(): Promise<number> {
    let ran = 0;
    for (;;) {
      const tasks = await this.claim(this.options.concurrency);
      if (tasks.length === 0) return ran;
      await Promise.all(tasks.map((task) => this.execute(task)));
      ran += tasks.length;
    }
  }

  private async run(): Promise<void> {
    while (this.running) {
      const free = this.options.concurrency - this.inFlight.size;
      const tasks = free > 0 ? await this.claim(free).catch((error: unknown) => this.report('claiming tasks failed', error)) : [];
      for (const task of tasks ?? []) {
        const execution = this.execute(task).finally(() => {
          this.inFlight.delete(execution);
          this.wake?.();
        });
        this.inFlight.add(execution);
      }
      if (!tasks?.length) await this.idle();
    }
  }

  private idle(): Promise<void> {
    const woken = new Promise<void>((resolve) => (this.wake = resolve));
    return Promise.race([woken, sleep(this.options.pollIntervalMs)]).finally(() => (this.wake = null));
  }

  private claim(limit: number): Promise<Task[]> {
    const now = isoNow(this.clock);
    return this.storage.tasks.claim({ now, leaseUntil: addMs(now, this.options.leaseMs), limit });
  }

  private async execute(task: Task): Promise<void> {
    const handler = this.handlers.get(task.kind);
    this.runningIds.add(task.id);
    try {
      if (!handler) throw new Error(`no handler for task kind '${task.kind}'`);
      await handler(task);
      await this.storage.tasks.complete(task.id);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const final = !handler || task.attempts >= this.options.maxAttempts;
      const retryAt = final ? null : addMs(isoNow(this.clock), Math.min(1000 * 2 ** task.attempts, MAX_BACKOFF_MS));
      this.log[final ? 'error' : 'warn']({ task: task.id, kind: task.kind, attempts: task.attempts, err: message }, final ? 'task failed for good' : 'task failed; will retry');
      await this.storage.tasks.fail(task.id, message, retryAt).catch((e: unknown) => this.report('recording a task failure failed', e));
    } finally {
      this.runningIds.delete(task.id);
    }
  }

  private report(what: string, error: unknown): undefined {
    this.log.error({ err: error instanceof Error ? error.message : String(error) }, what);
    return undefined;
  }
}

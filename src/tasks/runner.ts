import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { Logger } from '../core/logger.js';
import { isStorageUnavailable } from '../errors.js';
import { addMs, isoNow, type Clock } from '../core/clock.js';
import type { CoreEvents } from '../core/events.js';
import { noTelemetry, type Telemetry } from '../core/telemetry.js';
import type { Storage, Task } from '../storage/types.js';
import { ForegroundActivity, type GiveWay } from './foreground.js';

/** Does one task's work. Must be idempotent: a task whose worker died mid-way runs again after its lease. */
export type TaskHandler = (task: Task) => Promise<void>;
/**
 * Does the work of several tasks of one kind at once (one read, one model call, one commit for all of them), with
 * the same result as running them one by one. Idempotent like a TaskHandler: a batch that fails runs again task by
 * task, and one whose worker died runs again after its leases.
 */
export type TaskBatchHandler = (tasks: readonly Task[], giveWay: GiveWay) => Promise<void>;

export interface TaskRunnerOptions {
  concurrency: number;
  /** The most tasks of a batching kind run as one batch. */
  batchSize: number;
  /** The longest a task waits for a gap between client requests before it starts anyway (0: it does not wait). */
  foregroundWaitMs: number;
  pollIntervalMs: number;
  leaseMs: number;
  maxAttempts: number;
}

const MAX_BACKOFF_MS = 5 * 60_000;
/** Tasks leased per claim, per unit of concurrency: every claim and every completion is a commit. */
const CLAIM_BATCH_FACTOR = 8;

/**
 * Runs queued tasks from the database: leases a batch at a time, runs up to `concurrency` at once, records
 * completions in batches, retries failures with exponential backoff, renews the leases it holds, and on stop lets
 * running tasks finish and hands back the ones it had not started. Several processes over one Postgres database
 * share the queue safely.
 */
export class TaskRunner {
  private readonly handlers = new Map<string, { run: TaskBatchHandler; batches: boolean }>();
  private running = false;
  private loop: Promise<void> | null = null;
  private readonly inFlight = new Set<Promise<void>>();
  /** Leased and waiting for a free slot. */
  private leased: Task[] = [];
  /** Leased ids, waiting or running: their leases are renewed. */
  private readonly held = new Set<number>();
  private completed: number[] = [];
  /** Tasks finished in each of the last 60 seconds (by second, modulo 60): the backlog's drain rate. */
  private readonly finished = new Array<number>(60).fill(0);
  private finishedSecond = 0;
  private heartbeat: NodeJS.Timeout | null = null;
  private wake: (() => void) | null = null;
  private readonly unsubscribe: () => void;

  constructor(
    private readonly storage: Storage,
    private readonly clock: Clock,
    events: CoreEvents,
    private readonly options: TaskRunnerOptions,
    private readonly log: Logger,
    /** Client requests in flight: tasks start in the gaps between them. */
    private readonly foreground: ForegroundActivity = new ForegroundActivity(),
    /** Times and traces each task, and counts failures. */
    private readonly telemetry: Telemetry = noTelemetry,
  ) {
    this.unsubscribe = events.onTasksQueued(() => this.wake?.());
  }

  /** Handed to batch handlers (see GiveWay); with a foreground wait of 0 background work never waits. */
  private readonly giveWay: GiveWay = () => this.foreground.giveWay(this.options.foregroundWaitMs);

  register(kind: string, handler: TaskHandler): void {
    this.add(kind, { run: (tasks) => handler(tasks[0]!), batches: false });
  }

  /** A kind whose leased tasks run together, up to `batchSize` at once in one slot of `concurrency`. */
  registerBatch(kind: string, handler: TaskBatchHandler): void {
    this.add(kind, { run: handler, batches: true });
  }

  private add(kind: string, handler: { run: TaskBatchHandler; batches: boolean }): void {
    if (this.handlers.has(kind)) throw new Error(`a handler for task kind '${kind}' is already registered`);
    this.handlers.set(kind, handler);
  }

  /**
   * Starts claiming and running due tasks; with a concurrency of 0 it does nothing (an API-only node: other nodes
   * run the queue, and what this node queues waits for them).
   */
  start(): void {
    if (this.running || this.options.concurrency === 0) return;
    this.running = true;
    this.loop = this.run();
    // Leases stay short so a crashed worker's tasks return soon; a live worker renews those it holds.
    this.heartbeat = setInterval(() => void this.renewLeases(), Math.max(250, Math.floor(this.options.leaseMs / 3)));
    this.heartbeat.unref();
  }

  /** Stops claiming, waits for the running tasks, hands back the leased ones. Nothing queued is lost. */
  async stop(): Promise<void> {
    this.running = false;
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.wake?.();
    await this.loop;
    await Promise.allSettled([...this.inFlight]);
    // Unrecorded completions then run again elsewhere after their leases: idempotent work, repeated.
    await this.flushCompleted().catch((error: unknown) => this.report('recording finished tasks failed', error));
    const unstarted = this.leased.map((t) => t.id);
    this.leased = [];
    for (const id of unstarted) this.held.delete(id);
    await this.storage.tasks
      .release(unstarted)
      .catch((error: unknown) => this.report('handing back leased tasks failed', error));
    this.unsubscribe();
  }

  /** Runs every task that is due until none is left (tests, CLI). Returns how many ran. */
  async drain(): Promise<number> {
    let ran = 0;
    for (;;) {
      // Recorded before claiming more: the last batch, or one an earlier drain ran but could not record.
      await this.flushCompleted();
      const tasks = await this.claim(this.claimSize());
      if (tasks.length === 0) return ran;
      const units: Task[][] = [];
      while (tasks.length > 0) units.push(this.takeUnit(tasks, this.options.batchSize));
      for (let i = 0; i < units.length; i += this.slots) {
        await Promise.all(units.slice(i, i + this.slots).map((unit) => this.execute(unit)));
      }
      ran += units.reduce((sum, unit) => sum + unit.length, 0);
    }
  }

  private async run(): Promise<void> {
    while (this.running) {
      try {
        await this.flushCompleted();
        if (this.leased.length === 0 && this.inFlight.size < this.options.concurrency) {
          this.leased = await this.claim(this.claimSize());
        }
      } catch (error) {
        this.report('recording finished tasks or claiming more failed', error);
      }
      while (this.running && this.inFlight.size < this.options.concurrency && this.leased.length > 0) {
        // Let the event loop read waiting requests first (a task can run start to end without yielding to I/O),
        // then start only in a gap between them.
        await yieldToEventLoop();
        const wait = this.options.foregroundWaitMs;
        // In a gap between a client's calls, one task: the next call waits for whatever started in the gap, and a
        // batch of 32 enrichments held a serial client's recalls at a million memories to an engine p50 of 66 ms
        // (13 ms one task at a time; BENCHMARKS.md). A batch when the server is idle, or when calls kept coming for
        // the whole wait: then waiting longer would starve the background, and a batch is the most it gets done.
        const serving = wait > 0 && (await this.foreground.quiet(wait)) && this.foreground.servedWithin(wait);
        if (this.running) this.begin(this.takeUnit(this.leased, serving ? 1 : this.options.batchSize));
      }
      // Woken early by a finished task or by new work queued in this process. Not once stopped: a stop() that came
      // while a claim was in flight found no sleep to wake, and waited out a whole poll interval here.
      if (this.running) await this.idle(this.options.pollIntervalMs);
    }
  }

  /** Units run at once by `drain`, which a node whose concurrency is 0 (it runs nothing by itself) may be asked to do. */
  private get slots(): number {
    return Math.max(1, this.options.concurrency);
  }

  /** Enough for every slot: a batch each, or CLAIM_BATCH_FACTOR single tasks each. */
  private claimSize(): number {
    return this.slots * Math.max(CLAIM_BATCH_FACTOR, this.options.batchSize);
  }

  /**
   * Takes the next unit of work off `queue`: its first task, with the other tasks of that kind behind it (up to
   * `size` in all) when the kind runs in batches.
   */
  private takeUnit(queue: Task[], size: number): Task[] {
    const first = queue.shift()!;
    if (!this.handlers.get(first.kind)?.batches) return [first];
    const unit = [first];
    for (let i = 0; i < queue.length && unit.length < size; ) {
      if (queue[i]!.kind === first.kind) unit.push(...queue.splice(i, 1));
      else i++;
    }
    return unit;
  }

  private begin(unit: Task[]): void {
    const execution = this.execute(unit).finally(() => {
      this.inFlight.delete(execution);
      this.wake?.();
    });
    this.inFlight.add(execution);
  }

  private idle(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wake = null;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wake = done;
    });
  }

  private async claim(limit: number): Promise<Task[]> {
    const now = isoNow(this.clock);
    const tasks = await this.storage.tasks.claim({ now, leaseUntil: addMs(now, this.options.leaseMs), limit });
    for (const task of tasks) this.held.add(task.id);
    return tasks;
  }

  private async renewLeases(): Promise<void> {
    if (this.held.size === 0) return;
    const until = addMs(isoNow(this.clock), this.options.leaseMs);
    await this.storage.tasks
      .extendLeases([...this.held], until)
      .catch((error: unknown) => this.report('renewing task leases failed', error));
  }

  private async flushCompleted(): Promise<void> {
    if (this.completed.length === 0) return;
    const ids = this.completed;
    this.completed = [];
    try {
      await this.storage.tasks.complete(ids);
    } catch (error) {
      // The work is done but not recorded (the database went away): keep the ids for the next flush. Dropped, they
      // would stay held, so the heartbeat would renew their leases for as long as this process lives and the rows
      // would stay `running`, neither completed nor ever claimed again.
      this.completed = [...ids, ...this.completed];
      throw error;
    }
    for (const id of ids) this.held.delete(id);
  }

  /** Runs a unit (one task, or a batch of one kind); a batch that fails runs again task by task. */
  private async execute(unit: readonly Task[]): Promise<void> {
    const task = unit[0]!;
    const handler = this.handlers.get(task.kind);
    try {
      if (!handler) throw new Error(`no handler for task kind '${task.kind}'`);
      await this.telemetry.task({ kind: task.kind, ids: unit.map((t) => t.id) }, () => handler.run(unit, this.giveWay));
      // Recorded in the next batch; a crash before that only repeats idempotent work.
      for (const { id } of unit) this.completed.push(id);
      this.finished[this.advanceTo(this.clock.now().getTime()) % 60]! += unit.length;
    } catch (error) {
      if (unit.length > 1) {
        this.log.warn(
          { kind: task.kind, tasks: unit.length, err: error instanceof Error ? error.message : String(error) },
          'a batch of tasks failed; running them one by one',
        );
        // One bad task must not hold back the others, nor share its retries: each runs, and fails, alone.
        for (const single of unit) await this.execute([single]);
        return;
      }
      this.held.delete(task.id);
      const message = error instanceof Error ? error.message : String(error);
      // The database going away is no fault of the task: it runs again once the database is back, however many
      // attempts it has had, so that an outage (or several) never gives up queued work.
      const databaseAway = isStorageUnavailable(error);
      const final = !handler || (!databaseAway && task.attempts >= this.options.maxAttempts);
      this.telemetry.taskFailed(task.kind, final);
      const delayMs = databaseAway
        ? (error.retryAfter ?? 1) * 1000
        : Math.min(1000 * 2 ** task.attempts, MAX_BACKOFF_MS);
      const retryAt = final ? null : addMs(isoNow(this.clock), delayMs);
      this.log[final ? 'error' : 'warn'](
        { task: task.id, kind: task.kind, attempts: task.attempts, err: message },
        final ? 'task failed for good' : 'task failed; will retry',
      );
      await this.storage.tasks
        .fail(task.id, message, retryAt)
        .catch((e: unknown) => this.report('recording a task failure failed', e));
    }
  }

  /** Tasks this process finished in the last minute: how fast a backlog drains here (`/health/ready`). */
  finishedLastMinute(): number {
    this.advanceTo(this.clock.now().getTime());
    return this.finished.reduce((sum, n) => sum + n, 0);
  }

  /** Empties the buckets of the seconds since the last count; answers the current second. */
  private advanceTo(ms: number): number {
    const second = Math.floor(ms / 1000);
    if (second - this.finishedSecond >= 60) this.finished.fill(0);
    else for (let s = this.finishedSecond + 1; s <= second; s++) this.finished[s % 60] = 0;
    this.finishedSecond = Math.max(this.finishedSecond, second);
    return second;
  }

  private report(what: string, error: unknown): void {
    this.log.error({ err: error instanceof Error ? error.message : String(error) }, what);
  }
}

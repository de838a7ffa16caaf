import { createHash, randomUUID } from 'node:crypto';
import type { SandboxConfig } from '../config.js';
import { AppError } from '../errors.js';
import type { OperationRequest } from './protocol.js';
import { SandboxLostError, SandboxWorker, type OperationOutcome, type WorkerLimits } from './sandbox-worker.js';
import type {
  BoundVariable,
  CheckpointMeta,
  CheckpointReport,
  CheckpointStore,
  ExecuteRequest,
  ExecuteResult,
  SandboxHost,
  SandboxLogger,
  SandboxMetadata,
  SandboxStatus,
  StoredCheckpoint,
  VariableDetail,
  VariablesOverview,
} from './types.js';

export interface SandboxManagerOptions {
  config: SandboxConfig;
  store: CheckpointStore;
  /** The host for one session's `llm_query` and `recall`; the manager never lets a worker pick another. */
  hostFor(sessionId: string): SandboxHost;
  /** How long an interrupted operation may take to stop before its worker is terminated. Default 2 s. */
  interruptGraceMs?: number;
  /** Default 60 s. */
  startupTimeoutMs?: number;
  logger?: SandboxLogger;
}

interface Session {
  readonly id: string;
  worker: SandboxWorker | undefined;
  meta: SandboxMetadata | undefined;
  /**
   * The revision of the stored checkpoint the live state descends from (restored from, or saved as); null when none
   * was stored. Another revision in the store means another node has moved the session on since.
   */
  revision: string | null;
  /** SHA-256 of that checkpoint's data: a snapshot that has not changed since is not written again. */
  savedDigest: string | null;
  /** Tail of this session's operations: they run one at a time, in arrival order. */
  queue: Promise<unknown>;
  /** Operations queued or running. */
  pending: number;
  running: boolean;
  evicting: boolean;
  /** performance.now() of the last operation: monotonic and fine enough to order operations in the same millisecond. */
  lastUsedAt: number;
  /** A checkpoint of changed variables is due (see `checkpointSoon`). */
  checkpointTimer: NodeJS.Timeout | undefined;
}

const DEFAULT_MAX_RETURN_CHARS = 10_000;
const DEFAULT_PREVIEW_CHARS = 200;
const MAX_SWEEP_INTERVAL_MS = 30_000;

const digest = (data: Uint8Array): string => createHash('sha256').update(data).digest('hex');

/**
 * One Python sandbox per live session, each in its own worker. Sessions beyond `maxLive`, and
 * sessions idle for `idleEvictMs`, are checkpointed and their workers stopped; the next operation
 * restores them from the checkpoint, which is also what another manager (a restarted server, or
 * another node on the same database) uses. At most `maxLive` sandboxes plus one spare exist.
 *
 * Several nodes may serve one session in turn: before each operation a live sandbox checks the stored
 * checkpoint's revision, and when another node has saved (or removed) the session's state since this one last
 * restored or saved it, the live state is dropped and the stored one taken. With `checkpoint: 'sync'` a call that
 * changed variables saves them before it answers, so the next call continues from them on whichever node.
 */
export class SandboxManager {
  private readonly sessions = new Map<string, Session>();
  private readonly live = new Set<Session>();
  private starting = 0;
  private spare: Promise<SandboxWorker> | undefined;
  private capacityWaiters: (() => void)[] = [];
  private readonly sweepTimer: NodeJS.Timeout;
  private closed = false;
  private readonly limits: WorkerLimits;
  private readonly config: SandboxConfig;
  private readonly logger: SandboxLogger;

  constructor(private readonly options: SandboxManagerOptions) {
    this.config = options.config;
    this.logger = options.logger ?? { warn: () => {} };
    this.limits = {
      memoryLimitBytes: this.config.memoryLimitBytes,
      interruptGraceMs: options.interruptGraceMs ?? 2_000,
      startupTimeoutMs: options.startupTimeoutMs ?? 60_000,
    };
    if (this.config.spare === 'start') this.refillSpare();
    this.sweepTimer = setInterval(() => this.evictIdle(), Math.min(this.config.idleEvictMs / 2, MAX_SWEEP_INTERVAL_MS));
    this.sweepTimer.unref();
  }

  /** Loads the spare interpreter now unless spares are off; resolves once it is loaded (benchmarks, tests). */
  async warmUp(): Promise<void> {
    if (!this.spare && this.config.spare !== 'off' && !this.closed) this.refillSpare();
    await this.spare;
  }

  get liveCount(): number {
    return this.live.size;
  }

  async execute(sessionId: string, request: ExecuteRequest): Promise<ExecuteResult> {
    const timeoutMs = this.config.executionTimeoutMs;
    return this.operate(sessionId, 'execute', async (session, worker) => {
      const operation: OperationRequest = {
        op: 'execute',
        code: request.code,
        resultVar: request.resultVar ?? null,
        returnResult: request.returnResult ?? true,
        maxReturnChars: request.maxReturnChars ?? DEFAULT_MAX_RETURN_CHARS,
        maxOutputChars: this.config.maxOutputChars,
      };
      try {
        const outcome = await worker.run(operation, timeoutMs);
        const result = outcome.value as ExecuteResult;
        if (result.variables_changed.length > 0) await this.changed(session, worker);
        return { ...result, error: this.explainLimits(result.error, outcome.interrupted) };
      } catch (error) {
        if (!(error instanceof SandboxLostError)) throw error;
        const recovery = await this.recover(session);
        const cause =
          error.reason === 'timeout'
            ? `TimeoutError: execution exceeded the ${timeoutMs} ms limit and could not be interrupted`
            : `SandboxError: the sandbox stopped (${error.message})`;
        return { output: '', result: null, error: `${cause}; ${recovery}`, variables_changed: [] };
      }
    });
  }

  async inspect(sessionId: string, variable: string | undefined, previewChars = DEFAULT_PREVIEW_CHARS): Promise<VariableDetail | VariablesOverview> {
    return this.request(sessionId, { op: 'inspect', variable: variable ?? null, previewChars }) as Promise<VariableDetail | VariablesOverview>;
  }

  /** Binds JSON data (objects become dicts, arrays lists) to a Python variable. */
  async setVariable(sessionId: string, name: string, value: unknown, previewChars = DEFAULT_PREVIEW_CHARS): Promise<BoundVariable> {
    const json = value === undefined ? undefined : JSON.stringify(value);
    if (json === undefined) throw new AppError('validation_error', 'the value must be JSON data');
    return this.operate(sessionId, 'operation', async (session, worker) => {
      const bound = (await this.runRecovering(session, worker, { op: 'set_variable', name, json, previewChars })) as BoundVariable;
      await this.changed(session, worker);
      return bound;
    });
  }

  /** A variable's value as text for a prompt (strings as they are, else JSON or repr); null if undefined or None. */
  async getVariableText(sessionId: string, name: string, maxChars: number): Promise<string | null> {
    return this.request(sessionId, { op: 'variable_text', name, maxChars }) as Promise<string | null>;
  }

  async status(sessionId: string): Promise<SandboxStatus> {
    const session = this.sessions.get(sessionId);
    const checkpoint = session?.worker ? null : await this.options.store.load(sessionId);
    if (!session?.worker && !checkpoint) {
      return { exists: false, variable_count: 0, variables: [], total_size_bytes: 0, memory_limit_bytes: this.config.memoryLimitBytes, metadata: null };
    }
    return this.operate(sessionId, 'observe', async (current, worker) => {
      const summary = (await this.runRecovering(current, worker, { op: 'summary' })) as Pick<SandboxStatus, 'variable_count' | 'variables' | 'total_size_bytes'>;
      return { exists: true, ...summary, memory_limit_bytes: this.config.memoryLimitBytes, metadata: { ...current.meta! } };
    }, checkpoint);
  }

  /**
   * Saves the session's picklable variables; returns what was saved and what was left out.
   * A session with no live sandbox has nothing newer than its stored checkpoint: nothing to do.
   */
  async checkpoint(sessionId: string): Promise<CheckpointReport> {
    const session = this.sessions.get(sessionId);
    if (!session) return { saved: [], skipped: [] };
    return this.serialize(session, async () => (session.worker?.alive ? this.saveCheckpoint(session, session.worker) : { saved: [], skipped: [] }));
  }

  /** Stops the session's sandbox and deletes its checkpoint. */
  async cleanup(sessionId: string): Promise<void> {
    const session = this.sessionFor(sessionId);
    await this.serialize(session, async () => {
      await this.stop(session);
      await this.options.store.delete(sessionId);
    });
  }

  /**
   * Stops the session's sandbox, if it has one here, without a checkpoint: for a session that has
   * ended, whose checkpoint went with it.
   */
  async discard(sessionId: string): Promise<void> {
    const session = this.sessions.get(sessionId);
    if (session) await this.serialize(session, () => this.stop(session));
  }

  /** Checkpoints every live sandbox (so a restart loses nothing) and stops all workers. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.sweepTimer);
    await Promise.all([...this.live].map((session) => this.serialize(session, () => this.retire(session, true))));
    const spare = this.spare;
    this.spare = undefined;
    await spare?.then((worker) => worker.terminate()).catch(() => {});
  }

  private request(sessionId: string, operation: OperationRequest): Promise<unknown> {
    return this.operate(sessionId, 'operation', (session, worker) => this.runRecovering(session, worker, operation));
  }

  /** An operation other than execute; if it loses the interpreter, the session is restored and the caller told. */
  private async runRecovering(session: Session, worker: SandboxWorker, operation: OperationRequest): Promise<unknown> {
    try {
      return (await worker.run(operation, this.config.executionTimeoutMs)).value;
    } catch (error) {
      if (!(error instanceof SandboxLostError)) throw error;
      const recovery = await this.recover(session);
      throw new AppError('bad_request', `the sandbox stopped during '${operation.op}' (${error.message}); ${recovery}`);
    }
  }

  /** Runs one operation on a session's live sandbox, in turn with the session's other operations. */
  private operate<T>(
    sessionId: string,
    kind: 'execute' | 'operation' | 'observe',
    body: (session: Session, worker: SandboxWorker) => Promise<T>,
    checkpoint?: StoredCheckpoint | null,
  ): Promise<T> {
    if (this.closed) return Promise.reject(new AppError('not_ready', 'the sandbox manager is closed'));
    const session = this.sessionFor(sessionId);
    return this.serialize(session, async () => {
      const worker = await this.ensureLive(session, checkpoint);
      // Counted before the work: a checkpoint the call itself saves (`sync`) must include the call.
      const meta = session.meta!;
      if (kind !== 'observe') meta.total_operations += 1;
      if (kind === 'execute') {
        meta.exec_count += 1;
        meta.last_exec_at = new Date().toISOString();
      }
      try {
        return await body(session, worker);
      } finally {
        session.lastUsedAt = performance.now();
      }
    });
  }

  private sessionFor(sessionId: string): Session {
    let session = this.sessions.get(sessionId);
    if (!session) {
      session = {
        id: sessionId,
        worker: undefined,
        meta: undefined,
        queue: Promise.resolve(),
        pending: 0,
        running: false,
        evicting: false,
        lastUsedAt: performance.now(),
        checkpointTimer: undefined,
        revision: null,
        savedDigest: null,
      };
      this.sessions.set(sessionId, session);
    }
    return session;
  }

  private serialize<T>(session: Session, body: () => Promise<T>): Promise<T> {
    session.pending += 1;
    const run = session.queue.then(async () => {
      session.running = true;
      try {
        return await body();
      } finally {
        session.running = false;
        session.pending -= 1;
        // A session with no sandbox and nothing queued lives on only in its checkpoint.
        if (session.pending === 0 && !session.worker && this.sessions.get(session.id) === session) this.sessions.delete(session.id);
        this.signalCapacity();
      }
    });
    session.queue = run.catch(() => {});
    return run;
  }

  private async ensureLive(session: Session, preloaded?: StoredCheckpoint | null): Promise<SandboxWorker> {
    if (session.worker?.alive) {
      if ((await this.options.store.revision(session.id)) === session.revision) return session.worker;
      // Another node saved or removed the session's state after this one's: continue from the store. (A caller
      // that found this session live read no checkpoint: `preloaded` is not the store's.)
      await this.retire(session, false);
      session.meta = undefined;
      preloaded = undefined;
    }
    if (session.worker) this.forget(session);
    await this.acquireCapacity();
    try {
      // Checked after the wait for capacity too: close() may have run meanwhile.
      if (this.closed) throw new AppError('not_ready', 'the sandbox manager is closed');
      const worker = await this.takeWorker();
      try {
        worker.adopt(this.options.hostFor(session.id));
        const checkpoint = preloaded !== undefined ? preloaded : await this.options.store.load(session.id);
        if (checkpoint) await this.restore(session, worker, checkpoint);
        session.revision = checkpoint?.revision ?? null;
        session.savedDigest = checkpoint ? digest(checkpoint.data) : null;
      } catch (error) {
        await worker.terminate('start of the session failed');
        throw error;
      }
      session.meta ??= { created_at: new Date().toISOString(), exec_count: 0, total_operations: 0, last_exec_at: null };
      session.worker = worker;
      this.live.add(session);
      return worker;
    } finally {
      this.starting -= 1;
    }
  }

  private async restore(session: Session, worker: SandboxWorker, checkpoint: StoredCheckpoint): Promise<void> {
    const { created_at, exec_count, total_operations, last_exec_at } = checkpoint.meta;
    session.meta ??= { created_at, exec_count, total_operations, last_exec_at };
    try {
      await worker.run({ op: 'restore', data: checkpoint.data }, this.config.executionTimeoutMs);
    } catch (error) {
      // The session goes on without the old variables rather than not at all; the checkpoint stays.
      // If restoring killed the interpreter, though, there is nothing to go on with.
      if (error instanceof SandboxLostError) throw new AppError('internal_error', `the session's checkpoint could not be restored: ${error.message}`);
      this.logger.warn({ sessionId: session.id, error: String(error) }, 'sandbox checkpoint could not be restored');
    }
  }

  /** After a lost interpreter: a new one, restored from the last checkpoint. Says what the user got back. */
  private async recover(session: Session): Promise<string> {
    this.forget(session);
    const checkpoint = await this.options.store.load(session.id);
    await this.ensureLive(session, checkpoint);
    if (!checkpoint) return 'the sandbox was restarted empty (there was no checkpoint)';
    const names = checkpoint.meta.saved.join(', ') || 'none';
    return `the sandbox was restarted from its checkpoint of ${checkpoint.meta.saved_at} (variables: ${names})`;
  }

  private async saveCheckpoint(session: Session, worker: SandboxWorker): Promise<CheckpointReport> {
    const outcome: OperationOutcome = await worker.run({ op: 'snapshot' }, this.config.executionTimeoutMs);
    const report = outcome.value as CheckpointReport;
    if (!outcome.snapshot) throw new AppError('internal_error', 'the sandbox returned no checkpoint data');
    // Nothing new since the checkpoint this state descends from: writing it again would only make it look newer
    // than changes another node holds.
    const snapshotDigest = digest(outcome.snapshot);
    if (snapshotDigest === session.savedDigest) return report;
    const meta: CheckpointMeta = { ...session.meta!, ...report, saved_at: new Date().toISOString() };
    const revision = randomUUID();
    if (await this.options.store.save(session.id, outcome.snapshot, meta, revision, session.revision)) {
      session.revision = revision;
      session.savedDigest = snapshotDigest;
      return report;
    }
    // Another node saved or removed the session's state since this one's: that stands, and the next operation here
    // continues from it (ensureLive).
    this.logger.warn({ sessionId: session.id }, 'sandbox checkpoint not saved: another node has moved the session on');
    return { saved: [], skipped: [] };
  }

  /** A call changed variables: saved now (`sync`: before the call answers, in its turn) or soon after. */
  private async changed(session: Session, worker: SandboxWorker): Promise<void> {
    if (this.config.checkpoint === 'sync') await this.saveCheckpoint(session, worker);
    else this.checkpointSoon(session);
  }

  /**
   * Variables changed: a checkpoint follows `checkpointDelayMs` later, so that a crash of the server loses
   * at most that much. It waits in the session's queue like any operation, after the response has gone,
   * and covers every change made meanwhile. (Mutating a variable in place does not count as a change.)
   */
  private checkpointSoon(session: Session): void {
    const delay = this.config.checkpointDelayMs;
    if (delay === 0 || session.checkpointTimer) return;
    session.checkpointTimer = setTimeout(() => {
      session.checkpointTimer = undefined;
      void this.serialize(session, async () => {
        if (session.worker?.alive) await this.saveCheckpoint(session, session.worker);
      }).catch((error: unknown) => this.logger.warn({ sessionId: session.id, error: String(error) }, 'sandbox checkpoint after a change failed'));
    }, delay);
    session.checkpointTimer.unref();
  }

  /** Stops a session's worker, checkpointing it first when asked. Runs inside the session's queue. */
  private async retire(session: Session, checkpoint: boolean): Promise<void> {
    clearTimeout(session.checkpointTimer);
    session.checkpointTimer = undefined;
    const worker = session.worker;
    if (!worker) return;
    if (checkpoint && worker.alive) {
      try {
        await this.saveCheckpoint(session, worker);
      } catch (error) {
        this.logger.warn({ sessionId: session.id, error: String(error) }, 'sandbox checkpoint failed before stopping it');
      }
    }
    this.forget(session);
    await worker.terminate('stopped by the manager');
  }

  /** Ends the sandbox and its counters; the next operation starts a new one. */
  private async stop(session: Session): Promise<void> {
    await this.retire(session, false);
    session.meta = undefined;
  }

  private forget(session: Session): void {
    session.worker = undefined;
    this.live.delete(session);
    this.signalCapacity();
  }

  private async acquireCapacity(): Promise<void> {
    while (this.live.size + this.starting >= this.config.maxLive) {
      const victim = this.leastRecentlyUsedIdle();
      if (victim) {
        victim.evicting = true;
        await this.serialize(victim, () => this.retire(victim, true)).finally(() => {
          victim.evicting = false;
        });
      } else {
        await new Promise<void>((resolve) => this.capacityWaiters.push(resolve));
      }
    }
    this.starting += 1;
  }

  private leastRecentlyUsedIdle(): Session | undefined {
    let victim: Session | undefined;
    for (const session of this.live) {
      if (session.running || session.evicting) continue;
      if (!victim || session.lastUsedAt < victim.lastUsedAt) victim = session;
    }
    return victim;
  }

  private signalCapacity(): void {
    const waiters = this.capacityWaiters;
    this.capacityWaiters = [];
    for (const wake of waiters) wake();
  }

  private evictIdle(): void {
    const cutoff = performance.now() - this.config.idleEvictMs;
    for (const session of this.live) {
      if (session.running || session.evicting || session.lastUsedAt > cutoff) continue;
      session.evicting = true;
      void this.serialize(session, () => this.retire(session, true)).finally(() => {
        session.evicting = false;
      });
    }
  }

  /** The spare if it is usable, else a cold start; then the next spare starts loading. */
  private async takeWorker(): Promise<SandboxWorker> {
    const spare = this.spare;
    this.spare = undefined;
    try {
      const worker = await spare?.catch(() => undefined);
      return worker?.alive ? worker : await SandboxWorker.start(this.limits);
    } finally {
      if (!this.closed && !this.spare && this.config.spare !== 'off') this.refillSpare();
    }
  }

  private refillSpare(): void {
    const spare = SandboxWorker.start(this.limits);
    spare.catch((error: unknown) => this.logger.warn({ error: String(error) }, 'sandbox spare worker failed to start'));
    this.spare = spare;
  }

  private explainLimits(error: string | null, interrupted: boolean): string | null {
    if (interrupted) {
      return `TimeoutError: execution exceeded the ${this.config.executionTimeoutMs} ms limit and was interrupted\n${error ?? ''}`.trimEnd();
    }
    if (error && /^MemoryError\b/m.test(error.split('\n').at(-1) ?? '')) {
      return `${error}\n(the sandbox memory limit is ${this.config.memoryLimitBytes} bytes)`;
    }
    return error;
  }
}

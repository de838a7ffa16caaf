import type { SandboxConfig } from '../config.js';
import { AppError } from '../errors.js';
import { Capacity } from './capacity.js';
import { CheckpointPolicy } from './checkpoint-policy.js';
import type { OperationRequest } from './protocol.js';
import { SandboxLostError, type SandboxWorker } from './sandbox-worker.js';
import { newSession, type SandboxSession } from './session.js';
import { SparePool } from './spare-pool.js';
import type {
  BoundVariable,
  CheckpointReport,
  CheckpointStore,
  ExecuteRequest,
  ExecuteResult,
  SandboxHost,
  SandboxLogger,
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

const DEFAULT_MAX_RETURN_CHARS = 10_000;
const DEFAULT_PREVIEW_CHARS = 200;

/**
 * One Python sandbox per live session, each in its own worker. Sessions beyond `maxLive`, and
 * sessions idle for `idleEvictMs`, are checkpointed and their workers stopped; the next operation
 * restores them from the checkpoint, which is also what another manager (a restarted server, or
 * another node on the same database) uses. At most `maxLive` sandboxes plus one spare exist.
 *
 * The parts: each session's operations run in its `SerialQueue`; `Capacity` keeps the number of live sandboxes
 * and evicts; `SparePool` holds the interpreter loaded ahead of need; `CheckpointPolicy` decides when state is
 * saved and whether a live state is still the newest across nodes. This class runs operations with them.
 */
export class SandboxManager {
  private readonly sessions = new Map<string, SandboxSession>();
  private readonly capacity: Capacity;
  private readonly spares: SparePool;
  private readonly checkpoints: CheckpointPolicy;
  private closed = false;
  private readonly config: SandboxConfig;
  private readonly logger: SandboxLogger;

  constructor(private readonly options: SandboxManagerOptions) {
    this.config = options.config;
    this.logger = options.logger ?? { warn: () => {} };
    const limits = {
      memoryLimitBytes: this.config.memoryLimitBytes,
      interruptGraceMs: options.interruptGraceMs ?? 2_000,
      startupTimeoutMs: options.startupTimeoutMs ?? 60_000,
    };
    this.spares = new SparePool(limits, this.config.spare, this.logger);
    this.checkpoints = new CheckpointPolicy({ config: this.config, store: options.store, logger: this.logger });
    this.capacity = new Capacity({
      maxLive: this.config.maxLive,
      idleEvictMs: this.config.idleEvictMs,
      evict: (session) => session.queue.run(() => this.retire(session, true)),
    });
  }

  /** Loads the spare interpreter now unless spares are off; resolves once it is loaded (benchmarks, tests). */
  async warmUp(): Promise<void> {
    if (!this.closed) await this.spares.warmUp();
  }

  get liveCount(): number {
    return this.capacity.liveCount;
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
        if (result.variables_changed.length > 0) await this.checkpoints.changed(session, worker);
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

  async inspect(
    sessionId: string,
    variable: string | undefined,
    previewChars = DEFAULT_PREVIEW_CHARS,
  ): Promise<VariableDetail | VariablesOverview> {
    return this.request(sessionId, { op: 'inspect', variable: variable ?? null, previewChars }) as Promise<
      VariableDetail | VariablesOverview
    >;
  }

  /** Binds JSON data (objects become dicts, arrays lists) to a Python variable. */
  async setVariable(
    sessionId: string,
    name: string,
    value: unknown,
    previewChars = DEFAULT_PREVIEW_CHARS,
  ): Promise<BoundVariable> {
    const json = value === undefined ? undefined : JSON.stringify(value);
    if (json === undefined) throw new AppError('validation_error', 'the value must be JSON data');
    return this.operate(sessionId, 'operation', async (session, worker) => {
      const bound = (await this.runRecovering(session, worker, {
        op: 'set_variable',
        name,
        json,
        previewChars,
      })) as BoundVariable;
      await this.checkpoints.changed(session, worker);
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
      return {
        exists: false,
        variable_count: 0,
        variables: [],
        total_size_bytes: 0,
        memory_limit_bytes: this.config.memoryLimitBytes,
        metadata: null,
      };
    }
    return this.operate(
      sessionId,
      'observe',
      async (current, worker) => {
        const summary = (await this.runRecovering(current, worker, { op: 'summary' })) as Pick<
          SandboxStatus,
          'variable_count' | 'variables' | 'total_size_bytes'
        >;
        return {
          exists: true,
          ...summary,
          memory_limit_bytes: this.config.memoryLimitBytes,
          metadata: { ...current.meta! },
        };
      },
      checkpoint,
    );
  }

  /**
   * Saves the session's picklable variables; returns what was saved and what was left out.
   * A session with no live sandbox has nothing newer than its stored checkpoint: nothing to do.
   */
  async checkpoint(sessionId: string): Promise<CheckpointReport> {
    const session = this.sessions.get(sessionId);
    if (!session) return { saved: [], skipped: [] };
    return session.queue.run(async () =>
      session.worker?.alive ? this.checkpoints.save(session, session.worker) : { saved: [], skipped: [] },
    );
  }

  /** Stops the session's sandbox and deletes its checkpoint. */
  async cleanup(sessionId: string): Promise<void> {
    const session = this.sessionFor(sessionId);
    await session.queue.run(async () => {
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
    if (session) await session.queue.run(() => this.stop(session));
  }

  /** Checkpoints every live sandbox (so a restart loses nothing) and stops all workers. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.capacity.stopSweeping();
    const sparesClosed = this.spares.close();
    await Promise.all(this.capacity.sessions().map((session) => session.queue.run(() => this.retire(session, true))));
    await sparesClosed;
  }

  private request(sessionId: string, operation: OperationRequest): Promise<unknown> {
    return this.operate(sessionId, 'operation', (session, worker) => this.runRecovering(session, worker, operation));
  }

  /** An operation other than execute; if it loses the interpreter, the session is restored and the caller told. */
  private async runRecovering(
    session: SandboxSession,
    worker: SandboxWorker,
    operation: OperationRequest,
  ): Promise<unknown> {
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
    body: (session: SandboxSession, worker: SandboxWorker) => Promise<T>,
    checkpoint?: StoredCheckpoint | null,
  ): Promise<T> {
    if (this.closed) return Promise.reject(new AppError('not_ready', 'the sandbox manager is closed'));
    const session = this.sessionFor(sessionId);
    return session.queue.run(async () => {
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

  private sessionFor(sessionId: string): SandboxSession {
    let session = this.sessions.get(sessionId);
    if (!session) {
      session = newSession(sessionId, (settled) => this.settled(settled));
      this.sessions.set(sessionId, session);
    }
    return session;
  }

  /** After each operation of a session: one with no sandbox and nothing queued lives on only in its checkpoint. */
  private settled(session: SandboxSession): void {
    if (session.queue.idle && !session.worker && this.sessions.get(session.id) === session)
      this.sessions.delete(session.id);
    this.capacity.signal();
  }

  private async ensureLive(session: SandboxSession, preloaded?: StoredCheckpoint | null): Promise<SandboxWorker> {
    if (session.worker?.alive) {
      if (await this.checkpoints.isCurrent(session)) return session.worker;
      // Another node saved or removed the session's state after this one's: continue from the store. (A caller
      // that found this session live read no checkpoint: `preloaded` is not the store's.)
      await this.retire(session, false);
      session.meta = undefined;
      preloaded = undefined;
    }
    if (session.worker) this.forget(session);
    return this.capacity.admit(session, async () => {
      // Checked after the wait for capacity too: close() may have run meanwhile.
      if (this.closed) throw new AppError('not_ready', 'the sandbox manager is closed');
      const worker = await this.spares.take();
      try {
        worker.adopt(this.options.hostFor(session.id));
        const checkpoint = preloaded !== undefined ? preloaded : await this.options.store.load(session.id);
        if (checkpoint) await this.restore(session, worker, checkpoint);
        this.checkpoints.descendFrom(session, checkpoint);
      } catch (error) {
        await worker.terminate('start of the session failed');
        throw error;
      }
      session.meta ??= { created_at: new Date().toISOString(), exec_count: 0, total_operations: 0, last_exec_at: null };
      session.worker = worker;
      return worker;
    });
  }

  private async restore(session: SandboxSession, worker: SandboxWorker, checkpoint: StoredCheckpoint): Promise<void> {
    const { created_at, exec_count, total_operations, last_exec_at } = checkpoint.meta;
    session.meta ??= { created_at, exec_count, total_operations, last_exec_at };
    try {
      await worker.run({ op: 'restore', data: checkpoint.data }, this.config.executionTimeoutMs);
    } catch (error) {
      // The session goes on without the old variables rather than not at all; the checkpoint stays.
      // If restoring killed the interpreter, though, there is nothing to go on with.
      if (error instanceof SandboxLostError)
        throw new AppError('internal_error', `the session's checkpoint could not be restored: ${error.message}`);
      this.logger.warn({ sessionId: session.id, error: String(error) }, 'sandbox checkpoint could not be restored');
    }
  }

  /** After a lost interpreter: a new one, restored from the last checkpoint. Says what the user got back. */
  private async recover(session: SandboxSession): Promise<string> {
    this.forget(session);
    const checkpoint = await this.options.store.load(session.id);
    await this.ensureLive(session, checkpoint);
    if (!checkpoint) return 'the sandbox was restarted empty (there was no checkpoint)';
    const names = checkpoint.meta.saved.join(', ') || 'none';
    return `the sandbox was restarted from its checkpoint of ${checkpoint.meta.saved_at} (variables: ${names})`;
  }

  /** Stops a session's worker, checkpointing it first when asked. Runs inside the session's queue. */
  private async retire(session: SandboxSession, checkpoint: boolean): Promise<void> {
    this.checkpoints.cancel(session);
    const worker = session.worker;
    if (!worker) return;
    if (checkpoint && worker.alive) {
      try {
        await this.checkpoints.save(session, worker);
      } catch (error) {
        this.logger.warn(
          { sessionId: session.id, error: String(error) },
          'sandbox checkpoint failed before stopping it',
        );
      }
    }
    this.forget(session);
    await worker.terminate('stopped by the manager');
  }

  /** Ends the sandbox and its counters; the next operation starts a new one. */
  private async stop(session: SandboxSession): Promise<void> {
    await this.retire(session, false);
    session.meta = undefined;
  }

  private forget(session: SandboxSession): void {
    session.worker = undefined;
    this.capacity.release(session);
  }

  /**
   * Names the limits a run met, both when it met both: code filling the memory slowly on a busy machine was seen
   * interrupted and then out of memory (a CI run of test/sandbox/limits.test.ts).
   */
  private explainLimits(error: string | null, interrupted: boolean): string | null {
    const outOfMemory = error !== null && /^MemoryError\b/m.test(error.split('\n').at(-1) ?? '');
    const explained = outOfMemory
      ? `${error}\n(the sandbox memory limit is ${this.config.memoryLimitBytes} bytes)`
      : error;
    if (!interrupted) return explained;
    return `TimeoutError: execution exceeded the ${this.config.executionTimeoutMs} ms limit and was interrupted\n${explained ?? ''}`.trimEnd();
  }
}

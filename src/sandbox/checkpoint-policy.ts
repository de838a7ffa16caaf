import { createHash, randomUUID } from 'node:crypto';
import type { SandboxConfig } from '../config.js';
import { AppError } from '../errors.js';
import type { OperationOutcome, SandboxWorker } from './sandbox-worker.js';
import type { SandboxSession } from './session.js';
import type { CheckpointMeta, CheckpointReport, CheckpointStore, SandboxLogger, StoredCheckpoint } from './types.js';

export interface CheckpointPolicyOptions {
  config: Pick<SandboxConfig, 'checkpoint' | 'checkpointDelayMs' | 'executionTimeoutMs'>;
  store: CheckpointStore;
  logger: SandboxLogger;
}

const digest = (data: Uint8Array): string => createHash('sha256').update(data).digest('hex');

/**
 * When a session's state is saved, and whether a live state is still the newest. Several nodes may serve one session
 * in turn (NOTES.md, "Context environment"): every checkpoint carries a revision, a live state remembers the one it
 * descends from, and a save replaces only that revision, so a node that fell behind never overwrites newer state.
 */
export class CheckpointPolicy {
  private readonly due = new Map<SandboxSession, NodeJS.Timeout>();

  constructor(private readonly options: CheckpointPolicyOptions) {}

  /** No other node has saved or removed the session's state since this node's live state was restored or saved. */
  async isCurrent(session: SandboxSession): Promise<boolean> {
    return (await this.options.store.revision(session.id)) === session.revision;
  }

  /** The live state was just restored from `checkpoint` (null: started empty, none stored). */
  descendFrom(session: SandboxSession, checkpoint: StoredCheckpoint | null): void {
    session.revision = checkpoint?.revision ?? null;
    session.savedDigest = checkpoint ? digest(checkpoint.data) : null;
  }

  /** Saves the session's picklable variables unless nothing changed or another node has moved the session on. */
  async save(session: SandboxSession, worker: SandboxWorker): Promise<CheckpointReport> {
    const outcome: OperationOutcome = await worker.run({ op: 'snapshot' }, this.options.config.executionTimeoutMs);
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
    // continues from it (the manager checks `isCurrent` first).
    this.options.logger.warn(
      { sessionId: session.id },
      'sandbox checkpoint not saved: another node has moved the session on',
    );
    return { saved: [], skipped: [] };
  }

  /** A call changed variables: saved now (`sync`: before the call answers, in its turn) or soon after. */
  async changed(session: SandboxSession, worker: SandboxWorker): Promise<void> {
    if (this.options.config.checkpoint === 'sync') await this.save(session, worker);
    else this.saveSoon(session);
  }

  /** The session's sandbox stops: a checkpoint that was due is not written. */
  cancel(session: SandboxSession): void {
    clearTimeout(this.due.get(session));
    this.due.delete(session);
  }

  /**
   * Variables changed: a checkpoint follows `checkpointDelayMs` later, so that a crash of the server loses
   * at most that much. It waits in the session's queue like any operation, after the response has gone,
   * and covers every change made meanwhile. (Mutating a variable in place does not count as a change.)
   */
  private saveSoon(session: SandboxSession): void {
    const delay = this.options.config.checkpointDelayMs;
    if (delay === 0 || this.due.has(session)) return;
    const timer = setTimeout(() => {
      this.due.delete(session);
      void session.queue
        .run(async () => {
          if (session.worker?.alive) await this.save(session, session.worker);
        })
        .catch((error: unknown) =>
          this.options.logger.warn(
            { sessionId: session.id, error: String(error) },
            'sandbox checkpoint after a change failed',
          ),
        );
    }, delay);
    timer.unref();
    this.due.set(session, timer);
  }
}

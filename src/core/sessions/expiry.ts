import type { Storage, Task } from '../../storage/types.js';
import type { RecurringWork } from '../../tasks/recurring.js';
import { isoNow, type Clock } from '../clock.js';
import type { CoreEvents } from '../events.js';
import { DEFAULT_COMMIT_OPTIONS, type CommitOptions, type SessionCommitter } from './commit.js';
import type { SandboxCleanup } from './service.js';

export const SESSION_SWEEP_TASK = 'sessions.sweep';
export const SESSION_EXPIRE_TASK = 'session.expire';
/** How often expired sessions are looked for (the reference service's 300 s). */
export const SESSION_SWEEP_INTERVAL_MS = 300_000;
const SWEEP_BATCH = 1_000;
/** The automatic commit keeps every entry above the default threshold, not only the first 50. */
const AUTO_COMMIT: CommitOptions = { ...DEFAULT_COMMIT_OPTIONS, maxMemories: 500 };

interface ExpiryDeps {
  storage: Storage;
  committer: SessionCommitter;
  clock: Clock;
  events: CoreEvents;
  sandboxes: SandboxCleanup;
}

/**
 * Background expiry: a recurring sweep queues one durable task per expired session; that task commits the
 * session's working memory and then deletes the session. The commit is idempotent, so a crash between the two
 * steps only means the task runs again and finishes the deletion.
 */
export class SessionExpiry {
  constructor(private readonly deps: ExpiryDeps) {}

  readonly sweep: RecurringWork = {
    kind: SESSION_SWEEP_TASK,
    intervalMs: SESSION_SWEEP_INTERVAL_MS,
    run: async (now) => {
      const expired = await this.deps.storage.sessions.expired(now, SWEEP_BATCH);
      if (expired.length === 0) return;
      await this.deps.storage.tasks.enqueue(
        expired.map((s) => ({
          kind: SESSION_EXPIRE_TASK,
          workspaceId: s.workspace_id,
          payload: { session_id: s.id },
          runAt: now,
          dedupeKey: `${SESSION_EXPIRE_TASK}:${s.id}`,
        })),
      );
      this.deps.events.tasksQueued();
    },
  };

  readonly expire = async (task: Task): Promise<void> => {
    const { storage, committer, clock } = this.deps;
    const session = await storage.sessions.get(String(task.payload.session_id));
    if (!session || session.expires_at > isoNow(clock)) return;
    await committer.commit(session, AUTO_COMMIT);
    await storage.sessions.delete(session.id);
    await this.deps.sandboxes.cleanup(session.id);
  };
}

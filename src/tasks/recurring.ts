import { isoNow, type Clock } from '../core/clock.js';
import type { NewTask, Storage } from '../storage/types.js';
import type { TaskHandler } from './runner.js';

/** Background work that runs every `intervalMs` on whichever node claims it. */
export interface RecurringWork {
  kind: string;
  intervalMs: number;
  run(now: string): Promise<void>;
}

export interface RecurringTask {
  kind: string;
  handler: TaskHandler;
  /** Queues the current occurrence; every node calls it at start, the dedupe key keeps one. */
  seed(): Promise<void>;
}

/**
 * A recurring task on the durable queue. Occurrences are numbered by time slot (`kind@slot`), so every node that
 * starts queues the same one and the dedupe key keeps a single copy; each occurrence queues the next before it
 * works, so a failure or a crash mid-run never breaks the chain. After downtime the chain resumes at the current
 * slot rather than replaying the missed ones.
 */
export function recurringTask(storage: Storage, clock: Clock, work: RecurringWork): RecurringTask {
  const slotOf = (iso: string): number => Math.floor(Date.parse(iso) / work.intervalMs);
  const occurrence = (slot: number): NewTask => ({
    kind: work.kind,
    workspaceId: null,
    payload: { slot },
    runAt: new Date(slot * work.intervalMs).toISOString(),
    dedupeKey: `${work.kind}@${slot}`,
  });
  return {
    kind: work.kind,
    handler: async () => {
      const now = isoNow(clock);
      await storage.tasks.enqueue([occurrence(slotOf(now) + 1)]);
      await work.run(now);
    },
    seed: () => storage.tasks.enqueue([occurrence(slotOf(isoNow(clock)))]),
  };
}

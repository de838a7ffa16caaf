import type { EmbeddingProvider } from '../providers/embedding/types.js';
import type { LlmProvider } from '../providers/llm/types.js';
import type { Storage, TaskCounts, TaskSummary } from '../storage/types.js';
import { secondsSince, type Clock } from './clock.js';
import type { QueueReadings } from './queue-reading.js';

export interface Readiness {
  ready: boolean;
  storage: 'ok' | 'unreachable';
  /** provider/model */
  embedder: string;
  search_index: 'warm' | 'warming';
  llm: string;
  /** The queue's counts, its backlog by kind, and how many tasks this node finished in the last minute (its drain rate). */
  tasks: TaskCounts & {
    finished_last_minute: number;
    /** How long the longest-waiting due task has waited, in seconds (0 without a backlog). */
    oldest_pending_seconds: number;
    /** Due tasks by kind, and how long the longest-waiting of each has waited. */
    backlog: Record<string, { pending: number; oldest_pending_seconds: number }>;
  };
}

interface HealthDeps {
  storage: Storage;
  clock: Clock;
  /** The queue's counts, shared with /metrics and reused while counting a large queue is expensive. */
  queue: QueueReadings;
  embedder: EmbeddingProvider;
  llm: LlmProvider | null;
  /** Search indexes warm and background work started. */
  isReady(): boolean;
  /** Tasks this node finished in the last minute. */
  finishedLastMinute(): number;
}

/** Whether this node can serve: storage answers, indexes are warm; with what embedder and model, and how the queue stands. */
export class HealthCheck {
  constructor(private readonly deps: HealthDeps) {}

  async readiness(): Promise<Readiness> {
    const { storage, clock, queue: readings, embedder, llm, isReady, finishedLastMinute } = this.deps;
    // The storage probe is asked every time: the queue's counts may be a reading of a few seconds ago.
    const [reachable, reading] = await Promise.all([
      storage.ping().then(
        () => true,
        () => false,
      ),
      readings.read().catch(() => null),
    ]);
    const queue = reading?.summary ?? null;
    // A reused reading's oldest task has waited since: measured at this instant.
    const backlog = backlogAt(clock.now(), queue);
    return {
      ready: reachable && queue !== null && isReady(),
      storage: reachable ? 'ok' : 'unreachable',
      embedder: `${embedder.name}/${embedder.model}`,
      search_index: isReady() ? 'warm' : 'warming',
      llm: llm ? `${llm.name}/${llm.model}` : 'none',
      tasks: {
        ...(queue?.counts ?? { pending: 0, scheduled: 0, running: 0, failed: 0 }),
        finished_last_minute: finishedLastMinute(),
        oldest_pending_seconds: Math.max(0, ...Object.values(backlog).map((b) => b.oldest_pending_seconds)),
        backlog,
      },
    };
  }
}

/** The backlog by kind, with waits in whole seconds at `now`. */
function backlogAt(now: Date, queue: TaskSummary | null): Readiness['tasks']['backlog'] {
  return Object.fromEntries(
    (queue?.backlog ?? []).map(({ kind, pending, oldestDueAt }) => [
      kind,
      { pending, oldest_pending_seconds: Math.floor(secondsSince(now, oldestDueAt)) },
    ]),
  );
}

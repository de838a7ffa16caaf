import type { EmbeddingProvider } from '../providers/embedding/types.js';
import type { LlmProvider } from '../providers/llm/types.js';
import type { Storage, TaskCounts } from '../storage/types.js';
import type { Clock } from './clock.js';

export interface Readiness {
  ready: boolean;
  storage: 'ok' | 'unreachable';
  /** provider/model */
  embedder: string;
  search_index: 'warm' | 'warming';
  llm: string;
  /** The queue's counts, and how many tasks this node finished in the last minute (its drain rate). */
  tasks: TaskCounts & { finished_last_minute: number };
}

interface HealthDeps {
  storage: Storage;
  clock: Clock;
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
    const { storage, clock, embedder, llm, isReady, finishedLastMinute } = this.deps;
    // Reading the queue doubles as the storage probe.
    const tasks = await storage.tasks.counts(clock.now().toISOString()).catch(() => null);
    return {
      ready: tasks !== null && isReady(),
      storage: tasks ? 'ok' : 'unreachable',
      embedder: `${embedder.name}/${embedder.model}`,
      search_index: isReady() ? 'warm' : 'warming',
      llm: llm ? `${llm.name}/${llm.model}` : 'none',
      tasks: {
        ...(tasks ?? { pending: 0, scheduled: 0, running: 0, failed: 0 }),
        finished_last_minute: finishedLastMinute(),
      },
    };
  }
}

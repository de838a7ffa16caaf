import type { Logger } from '../logger.js';
import type { Storage } from '../../storage/types.js';
import { isoNow, type Clock } from '../clock.js';

/** Each flush is one write (and one disk sync): batch a second's worth of recalls. */
const FLUSH_DELAY_MS = 1_000;
const FLUSH_AT_PENDING = 2_000;

/**
 * Counts recall hits off the hot path: ids are collected per workspace and written in one statement per
 * workspace a moment later. A memory recalled twice before a flush is counted twice (once per recall).
 */
export class AccessRecorder {
  /** workspace -> memory id -> recalls not yet written */
  private pending = new Map<string, Map<string, number>>();
  private size = 0;
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly storage: Storage,
    private readonly clock: Clock,
    private readonly log: Logger,
  ) {}

  record(workspaceId: string, ids: readonly string[]): void {
    if (ids.length === 0) return;
    const counts = this.pending.get(workspaceId) ?? new Map<string, number>();
    for (const id of ids) counts.set(id, (counts.get(id) ?? 0) + 1);
    this.pending.set(workspaceId, counts);
    this.size += ids.length;
    if (this.size >= FLUSH_AT_PENDING) void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), FLUSH_DELAY_MS).unref();
  }

  /**
   * Resolves once the recalls of this memory counted so far are written, so that a read right after a recall sees
   * them: a flush when the memory has some pending, else the flush in flight (if any). Costs nothing otherwise.
   */
  settle(workspaceId: string, memoryId: string): Promise<void> {
    return this.pending.get(workspaceId)?.has(memoryId) ? this.flush() : this.flushing;
  }

  /** Writes everything pending; resolves when written (tests and shutdown call it). */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const batch = this.pending;
    this.pending = new Map();
    this.size = 0;
    this.flushing = this.flushing.then(() => this.write(batch));
    return this.flushing;
  }

  private async write(batch: Map<string, Map<string, number>>): Promise<void> {
    const at = isoNow(this.clock);
    for (const [workspaceId, counts] of batch) {
      // Memories recalled n times are counted n times: statement k counts those recalled at least k times, all in
      // one transaction (one disk sync per flush).
      const rounds = Math.max(...counts.values());
      try {
        await this.storage.transaction(async (tx) => {
          for (let round = 1; round <= rounds; round++) {
            await tx.memories.recordAccess(
              workspaceId,
              [...counts].filter(([, times]) => times >= round).map(([id]) => id),
              at,
            );
          }
        });
      } catch (error) {
        // Access counts are bookkeeping: losing a batch must not fail anything else.
        this.log.warn(
          { workspace: workspaceId, err: error instanceof Error ? error.message : String(error) },
          'recording recall accesses failed',
        );
      }
    }
  }
}

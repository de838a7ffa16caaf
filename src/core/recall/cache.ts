import { LRUCache } from 'lru-cache';
import type { WorkspaceStore } from '../../storage/types.js';
import type { Clock } from '../clock.js';

interface Entry<T> {
  value: T;
  storedAt: number;
  version: number;
}

/**
 * Recall results per (workspace, request): an LRU with a time-to-live read from the injected clock. Each result is
 * kept under the workspace's memory version (storage: counted in the database at every acknowledged change, on
 * any node), read before the recall read anything, and answers only while that version holds. So a write through
 * another API node retires this node's results as surely as one through this node.
 */
export class RecallCache<T> {
  private readonly entries: LRUCache<string, Entry<T>> | null;
  private readonly ttlMs: number;

  constructor(
    options: { maxEntries: number; ttlMs: number },
    private readonly clock: Clock,
    private readonly versions: Pick<WorkspaceStore, 'memoryVersion'>,
  ) {
    this.ttlMs = options.ttlMs;
    this.entries = options.maxEntries > 0 && options.ttlMs > 0 ? new LRUCache({ max: options.maxEntries }) : null;
  }

  private key(workspaceId: string, request: string): string {
    return `${workspaceId}\u0000${request}`;
  }

  /** The workspace's memory version for a recall starting now (no read when the cache is off). */
  version(workspaceId: string): Promise<number> {
    return this.entries ? this.versions.memoryVersion(workspaceId) : Promise.resolve(0);
  }

  get(workspaceId: string, request: string, version: number): T | undefined {
    const key = this.key(workspaceId, request);
    const entry = this.entries?.get(key);
    if (!entry) return undefined;
    if (entry.version !== version || this.clock.now().getTime() - entry.storedAt >= this.ttlMs) {
      this.entries!.delete(key);
      return undefined;
    }
    return entry.value;
  }

  /**
   * Keeps a result read at `version`. A change that landed while the recall ran has raised the version already or
   * will: the next recall reads the higher one and does not take this result.
   */
  set(workspaceId: string, request: string, value: T, version: number): void {
    this.entries?.set(this.key(workspaceId, request), { value, storedAt: this.clock.now().getTime(), version });
  }

  close(): void {
    this.entries?.clear();
  }
}

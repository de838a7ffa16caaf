import { LRUCache } from 'lru-cache';
import type { Clock } from '../clock.js';
import type { CoreEvents } from '../events.js';

interface Entry<T> {
  value: T;
  storedAt: number;
  generation: number;
}

/**
 * Recall results per (workspace, request): an LRU with a time-to-live read from the injected clock. A write in a
 * workspace bumps its generation, which makes every entry of that workspace stale at once (O(1), no key scan).
 */
export class RecallCache<T> {
  private readonly entries: LRUCache<string, Entry<T>> | null;
  private readonly generations = new Map<string, number>();
  private readonly unsubscribe: () => void;

  constructor(
    options: { maxEntries: number; ttlMs: number },
    private readonly clock: Clock,
    events: CoreEvents,
  ) {
    this.ttlMs = options.ttlMs;
    this.entries = options.maxEntries > 0 && options.ttlMs > 0 ? new LRUCache({ max: options.maxEntries }) : null;
    this.unsubscribe = events.onMemoriesChanged((workspaceId) => this.invalidate(workspaceId));
  }

  private readonly ttlMs: number;

  private generation(workspaceId: string): number {
    return this.generations.get(workspaceId) ?? 0;
  }

  private key(workspaceId: string, request: string): string {
    return `${workspaceId}\u0000${request}`;
  }

  get(workspaceId: string, request: string): T | undefined {
    const key = this.key(workspaceId, request);
    const entry = this.entries?.get(key);
    if (!entry) return undefined;
    if (entry.generation !== this.generation(workspaceId) || this.clock.now().getTime() - entry.storedAt >= this.ttlMs) {
      this.entries!.delete(key);
      return undefined;
    }
    return entry.value;
  }

  set(workspaceId: string, request: string, value: T, generation: number): void {
    // A write that landed while this recall ran makes its result stale before it is stored.
    if (generation !== this.generation(workspaceId)) return;
    this.entries?.set(this.key(workspaceId, request), { value, storedAt: this.clock.now().getTime(), generation });
  }

  /** The generation to pass to `set` for a recall starting now. */
  snapshot(workspaceId: string): number {
    return this.generation(workspaceId);
  }

  invalidate(workspaceId: string): void {
    this.generations.set(workspaceId, this.generation(workspaceId) + 1);
  }

  close(): void {
    this.unsubscribe();
    this.entries?.clear();
  }
}

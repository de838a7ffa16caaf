import type { SandboxSession } from './session.js';

export interface CapacityOptions {
  /** Live sandboxes at most (workers being started count too). */
  maxLive: number;
  /** A sandbox idle this long is evicted by the sweep. */
  idleEvictMs: number;
  /** Checkpoints and stops a session's sandbox, in the session's queue; resolves once it is stopped. */
  evict(session: SandboxSession): Promise<void>;
}

const MAX_SWEEP_INTERVAL_MS = 30_000;

/**
 * The live sandboxes of this node and room for new ones. A new sandbox waits for a free place: the least recently
 * used idle sandbox is evicted to make one, and when every live sandbox is busy the newcomer waits until one is
 * idle or gone. A sweep evicts sandboxes idle for `idleEvictMs`.
 *
 * Hand-written rather than an LRU cache: the least recently used entry may be busy and must be skipped, eviction is
 * asynchronous (a checkpoint in the victim's queue) and the newcomer must wait until it has finished, so that no
 * more than `maxLive` workers ever exist at once.
 */
export class Capacity {
  private readonly live = new Set<SandboxSession>();
  private readonly evicting = new Set<SandboxSession>();
  /** Places taken by sandboxes being started. */
  private starting = 0;
  private waiters: (() => void)[] = [];
  private readonly sweepTimer: NodeJS.Timeout;

  constructor(private readonly options: CapacityOptions) {
    this.sweepTimer = setInterval(() => this.evictIdle(), Math.min(options.idleEvictMs / 2, MAX_SWEEP_INTERVAL_MS));
    this.sweepTimer.unref();
  }

  get liveCount(): number {
    return this.live.size;
  }

  /** Every live session, for shutdown. */
  sessions(): SandboxSession[] {
    return [...this.live];
  }

  /** Starts a sandbox for `session` in a place of its own; the session counts as live once `start` has succeeded. */
  async admit<T>(session: SandboxSession, start: () => Promise<T>): Promise<T> {
    await this.reserve();
    try {
      const started = await start();
      this.live.add(session);
      return started;
    } finally {
      this.starting -= 1;
    }
  }

  /** The session's sandbox has stopped: its place is free. */
  release(session: SandboxSession): void {
    this.live.delete(session);
    this.signal();
  }

  /** Something changed that may free a place (an operation ended, so its session may now be evicted): waiters look again. */
  signal(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }

  stopSweeping(): void {
    clearInterval(this.sweepTimer);
  }

  private async reserve(): Promise<void> {
    while (this.live.size + this.starting >= this.options.maxLive) {
      const victim = this.leastRecentlyUsedIdle();
      if (victim) await this.evict(victim);
      else await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
    this.starting += 1;
  }

  private leastRecentlyUsedIdle(): SandboxSession | undefined {
    let victim: SandboxSession | undefined;
    for (const session of this.live) {
      if (!this.evictable(session)) continue;
      if (!victim || session.lastUsedAt < victim.lastUsedAt) victim = session;
    }
    return victim;
  }

  private evictIdle(): void {
    const cutoff = performance.now() - this.options.idleEvictMs;
    for (const session of this.live) {
      if (this.evictable(session) && session.lastUsedAt <= cutoff) void this.evict(session);
    }
  }

  private evictable(session: SandboxSession): boolean {
    return !session.queue.running && !this.evicting.has(session);
  }

  private async evict(session: SandboxSession): Promise<void> {
    this.evicting.add(session);
    try {
      await this.options.evict(session);
    } finally {
      this.evicting.delete(session);
    }
  }
}

import type { SandboxWorker } from './sandbox-worker.js';
import { SerialQueue } from './serial-queue.js';
import type { SandboxMetadata } from './types.js';

/** What the manager knows of one session on this node: its queue, its live worker if any, and where its state came from. */
export interface SandboxSession {
  readonly id: string;
  /** Every operation on the session, eviction and checkpoints included, runs in this queue. */
  readonly queue: SerialQueue;
  worker: SandboxWorker | undefined;
  meta: SandboxMetadata | undefined;
  /**
   * The revision of the stored checkpoint the live state descends from (restored from, or saved as); null when none
   * was stored. Another revision in the store means another node has moved the session on since.
   */
  revision: string | null;
  /** SHA-256 of that checkpoint's data: a snapshot that has not changed since is not written again. */
  savedDigest: string | null;
  /** performance.now() of the last operation: monotonic and fine enough to order operations in the same millisecond. */
  lastUsedAt: number;
}

export function newSession(id: string, onSettled: (session: SandboxSession) => void): SandboxSession {
  const session: SandboxSession = {
    id,
    queue: new SerialQueue(() => onSettled(session)),
    worker: undefined,
    meta: undefined,
    revision: null,
    savedDigest: null,
    lastUsedAt: performance.now(),
  };
  return session;
}

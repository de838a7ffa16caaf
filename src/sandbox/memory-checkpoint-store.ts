import type { CheckpointMeta, CheckpointStore, StoredCheckpoint } from './types.js';

/** Checkpoints in this process only: for tests, and for running without a database. */
export class InMemoryCheckpointStore implements CheckpointStore {
  private readonly checkpoints = new Map<string, StoredCheckpoint>();

  async save(
    sessionId: string,
    data: Uint8Array,
    meta: CheckpointMeta,
    revision: string,
    replaces: string | null,
  ): Promise<boolean> {
    if ((this.checkpoints.get(sessionId)?.revision ?? null) !== replaces) return false;
    this.checkpoints.set(sessionId, { data: data.slice(), meta: structuredClone(meta), revision });
    return true;
  }

  async load(sessionId: string): Promise<StoredCheckpoint | null> {
    const found = this.checkpoints.get(sessionId);
    return found ? { data: found.data.slice(), meta: structuredClone(found.meta), revision: found.revision } : null;
  }

  async revision(sessionId: string): Promise<string | null> {
    return this.checkpoints.get(sessionId)?.revision ?? null;
  }

  async delete(sessionId: string): Promise<void> {
    this.checkpoints.delete(sessionId);
  }

  has(sessionId: string): boolean {
    return this.checkpoints.has(sessionId);
  }
}

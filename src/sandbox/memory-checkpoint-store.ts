import type { CheckpointMeta, CheckpointStore } from './types.js';

/** Checkpoints in this process only: for tests, and for running without a database. */
export class InMemoryCheckpointStore implements CheckpointStore {
  private readonly checkpoints = new Map<string, { data: Uint8Array; meta: CheckpointMeta }>();

  async save(sessionId: string, data: Uint8Array, meta: CheckpointMeta): Promise<void> {
    this.checkpoints.set(sessionId, { data: data.slice(), meta: structuredClone(meta) });
  }

  async load(sessionId: string): Promise<{ data: Uint8Array; meta: CheckpointMeta } | null> {
    const found = this.checkpoints.get(sessionId);
    return found ? { data: found.data.slice(), meta: structuredClone(found.meta) } : null;
  }

  async delete(sessionId: string): Promise<void> {
    this.checkpoints.delete(sessionId);
  }

  has(sessionId: string): boolean {
    return this.checkpoints.has(sessionId);
  }
}

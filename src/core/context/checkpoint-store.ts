import type { CheckpointMeta, CheckpointStore } from '../../sandbox/types.js';
import type { Storage } from '../../storage/types.js';
import { isoNow, type Clock } from '../clock.js';

/** Sandbox checkpoints in the database, so another node, or this one after a restart, restores a session. */
export class DatabaseCheckpointStore implements CheckpointStore {
  constructor(
    private readonly storage: Storage,
    private readonly clock: Clock,
  ) {}

  async save(sessionId: string, data: Uint8Array, meta: CheckpointMeta): Promise<void> {
    // A session that has ended meanwhile keeps nothing (its row, and its checkpoint, are gone).
    await this.storage.sandboxCheckpoints.put(sessionId, data, { ...meta }, isoNow(this.clock));
  }

  async load(sessionId: string): Promise<{ data: Uint8Array; meta: CheckpointMeta } | null> {
    const checkpoint = await this.storage.sandboxCheckpoints.get(sessionId);
    return checkpoint ? { data: checkpoint.data, meta: checkpoint.metadata as unknown as CheckpointMeta } : null;
  }

  async delete(sessionId: string): Promise<void> {
    await this.storage.sandboxCheckpoints.delete(sessionId);
  }
}

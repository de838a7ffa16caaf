import type { CheckpointMeta, CheckpointStore, StoredCheckpoint } from '../../sandbox/types.js';
import type { Storage } from '../../storage/types.js';
import { isoNow, type Clock } from '../clock.js';

/** Sandbox checkpoints in the database, so another node, or this one after a restart, restores a session. */
export class DatabaseCheckpointStore implements CheckpointStore {
  constructor(
    private readonly storage: Storage,
    private readonly clock: Clock,
  ) {}

  save(
    sessionId: string,
    data: Uint8Array,
    meta: CheckpointMeta,
    revision: string,
    replaces: string | null,
  ): Promise<boolean> {
    // A session that has ended meanwhile keeps nothing (its row, and its checkpoint, are gone).
    return this.storage.sandboxCheckpoints.put(sessionId, data, { ...meta }, isoNow(this.clock), revision, replaces);
  }

  async load(sessionId: string): Promise<StoredCheckpoint | null> {
    const checkpoint = await this.storage.sandboxCheckpoints.get(sessionId);
    return checkpoint
      ? { data: checkpoint.data, meta: checkpoint.metadata as unknown as CheckpointMeta, revision: checkpoint.revision }
      : null;
  }

  revision(sessionId: string): Promise<string | null> {
    return this.storage.sandboxCheckpoints.revision(sessionId);
  }

  async delete(sessionId: string): Promise<void> {
    await this.storage.sandboxCheckpoints.delete(sessionId);
  }
}

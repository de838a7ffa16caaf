import type { JsonObject, SandboxCheckpoint, SandboxCheckpointStore } from '../types.js';
import { json, parseJsonObject, toIso } from '../rows.js';
import type { SqlContext } from './context.js';

export class SqlSandboxCheckpointStore implements SandboxCheckpointStore {
  constructor(private readonly ctx: SqlContext) {}

  async put(
    sessionId: string,
    data: Uint8Array,
    metadata: JsonObject,
    at: string,
    revision: string,
    replaces: string | null,
  ): Promise<boolean> {
    // The session gives the workspace; a session deleted meanwhile leaves nothing to keep.
    const session = await this.ctx.db
      .selectFrom('sessions')
      .select('workspace_id')
      .where('id', '=', sessionId)
      .executeTakeFirst();
    if (!session) return false;
    const values = {
      data: Buffer.from(data.buffer, data.byteOffset, data.byteLength),
      metadata: json(metadata),
      updated_at: at,
      revision,
    };
    // One conditional statement each way, so that two nodes saving at once cannot both win.
    if (replaces === null) {
      const inserted = await this.ctx.db
        .insertInto('sandbox_checkpoints')
        .values({ session_id: sessionId, workspace_id: session.workspace_id, ...values })
        .onConflict((oc) => oc.column('session_id').doNothing())
        .executeTakeFirst();
      return Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0;
    }
    const updated = await this.ctx.db
      .updateTable('sandbox_checkpoints')
      .set(values)
      .where('session_id', '=', sessionId)
      .where('revision', '=', replaces)
      .executeTakeFirst();
    return Number(updated.numUpdatedRows) > 0;
  }

  async get(sessionId: string): Promise<SandboxCheckpoint | null> {
    const row = await this.ctx.db
      .selectFrom('sandbox_checkpoints')
      .selectAll()
      .where('session_id', '=', sessionId)
      .executeTakeFirst();
    if (!row) return null;
    const data = new Uint8Array(row.data.buffer, row.data.byteOffset, row.data.byteLength);
    return { ...row, data, metadata: parseJsonObject(row.metadata), updated_at: toIso(row.updated_at) };
  }

  async revision(sessionId: string): Promise<string | null> {
    const row = await this.ctx.db
      .selectFrom('sandbox_checkpoints')
      .select('revision')
      .where('session_id', '=', sessionId)
      .executeTakeFirst();
    return row?.revision ?? null;
  }

  async delete(sessionId: string): Promise<boolean> {
    const result = await this.ctx.db
      .deleteFrom('sandbox_checkpoints')
      .where('session_id', '=', sessionId)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}

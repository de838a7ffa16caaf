import type { Selectable } from 'kysely';
import type { SessionsTable, WorkingMemoryTable } from '../database.js';
import { json, parseJson, parseJsonObject, toIso, toIsoOrNull } from '../rows.js';
import type { Session, SessionStore, WorkingMemoryEntry } from '../types.js';
import type { SqlContext } from './context.js';

const toSession = (row: Selectable<SessionsTable>): Session => ({
  id: row.id,
  workspace_id: row.workspace_id,
  tenant_id: row.tenant_id,
  context_id: row.context_id,
  user_id: row.user_id,
  metadata: parseJsonObject(row.metadata),
  ttl_seconds: row.ttl_seconds,
  expires_at: toIso(row.expires_at),
  created_at: toIso(row.created_at),
  updated_at: toIso(row.updated_at),
});

const toEntry = (row: Selectable<WorkingMemoryTable>): WorkingMemoryEntry => ({
  key: row.key,
  value: parseJson<unknown>(row.value),
  ttl_seconds: row.ttl_seconds,
  expires_at: toIsoOrNull(row.expires_at),
  created_at: toIso(row.created_at),
  updated_at: toIso(row.updated_at),
});

export class SqlSessionStore implements SessionStore {
  constructor(private readonly ctx: SqlContext) {}

  async create(session: Session): Promise<boolean> {
    const result = await this.ctx.db
      .insertInto('sessions')
      .values({ ...session, metadata: json(session.metadata) })
      .onConflict((oc) => oc.column('id').doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  async get(id: string): Promise<Session | null> {
    const row = await this.ctx.db.selectFrom('sessions').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toSession(row) : null;
  }

  async list(options: { workspaceId?: string; contextId?: string; activeAt?: string }): Promise<Session[]> {
    let q = this.ctx.db.selectFrom('sessions').selectAll();
    if (options.workspaceId !== undefined) q = q.where('workspace_id', '=', options.workspaceId);
    if (options.contextId !== undefined) q = q.where('context_id', '=', options.contextId);
    if (options.activeAt !== undefined) q = q.where('expires_at', '>', options.activeAt);
    const rows = await q.orderBy('created_at', 'desc').orderBy('id').execute();
    return rows.map(toSession);
  }

  async expired(at: string, limit: number): Promise<Session[]> {
    const rows = await this.ctx.db
      .selectFrom('sessions')
      .selectAll()
      .where('expires_at', '<=', at)
      .orderBy('expires_at')
      .limit(limit)
      .execute();
    return rows.map(toSession);
  }

  async update(
    id: string,
    patch: Partial<Pick<Session, 'expires_at' | 'ttl_seconds' | 'metadata' | 'updated_at'>>,
  ): Promise<Session | null> {
    const { metadata, ...rest } = patch;
    const row = await this.ctx.db
      .updateTable('sessions')
      .set({ ...rest, ...(metadata === undefined ? {} : { metadata: json(metadata) }) })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
    return row ? toSession(row) : null;
  }

  async delete(id: string): Promise<boolean> {
    const result = await this.ctx.db.deleteFrom('sessions').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async putEntry(sessionId: string, entry: WorkingMemoryEntry): Promise<WorkingMemoryEntry> {
    const row = await this.ctx.db
      .insertInto('working_memory')
      .values({ session_id: sessionId, ...entry, value: json(entry.value) })
      .onConflict((oc) =>
        oc.columns(['session_id', 'key']).doUpdateSet({
          value: json(entry.value),
          ttl_seconds: entry.ttl_seconds,
          expires_at: entry.expires_at,
          updated_at: entry.updated_at,
        }),
      )
      .returningAll()
      .executeTakeFirstOrThrow();
    return toEntry(row);
  }

  async entries(sessionId: string, at: string): Promise<WorkingMemoryEntry[]> {
    const rows = await this.ctx.db
      .selectFrom('working_memory')
      .selectAll()
      .where('session_id', '=', sessionId)
      .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', at)]))
      .orderBy('created_at')
      .orderBy('key')
      .execute();
    return rows.map(toEntry);
  }

  async deleteEntry(sessionId: string, key: string): Promise<boolean> {
    const result = await this.ctx.db
      .deleteFrom('working_memory')
      .where('session_id', '=', sessionId)
      .where('key', '=', key)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}

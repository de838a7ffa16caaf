import { type Selectable, sql } from 'kysely';
import type { ContextsTable, Database, WorkspacesTable } from '../database.js';
import { bit, json, parseJsonObject, toBool, toIso } from '../rows.js';
import type { Context, ContextStore, Workspace, WorkspacePresence, WorkspaceStore } from '../types.js';
import type { SqlContext } from './context.js';

const toWorkspace = (row: Selectable<WorkspacesTable>): Workspace => ({
  id: row.id,
  tenant_id: row.tenant_id,
  name: row.name,
  settings: parseJsonObject(row.settings),
  created_at: toIso(row.created_at),
  updated_at: toIso(row.updated_at),
});

const workspaceRow = (w: Workspace) => ({ ...w, settings: json(w.settings) });

/**
 * The tables whose rows belong to one workspace: what a workspace must hold none of to be removed as unused
 * (`deleteUnused`). memory_versions is not content: a workspace's count of changes outlives it. The storage
 * conformance suite checks that this names every table with a workspace_id column.
 */
export const WORKSPACE_CONTENT = [
  'contexts',
  'memories',
  'memory_vectors',
  'associations',
  'tasks',
  'sessions',
  'knowledgebases',
  'kb_articles',
  'kb_article_memories',
  'kb_jobs',
  'chat_threads',
  'chat_messages',
  'contradictions',
  'entity_cards',
  'sandbox_checkpoints',
  'application_workspaces',
  'skills',
  'mcp_servers',
  'data_providers',
  'documents',
  'document_originals',
  'document_pages',
  'document_passages',
  'ingestion_jobs',
  'document_memories',
] as const satisfies ReadonlyArray<keyof Database>;

/** Tables with a workspace_id column that hold no content of the workspace (see WORKSPACE_CONTENT). */
export const WORKSPACE_BOOKKEEPING = ['memory_versions'] as const satisfies ReadonlyArray<keyof Database>;

export class SqlWorkspaceStore implements WorkspaceStore {
  constructor(private readonly ctx: SqlContext) {}

  async create(workspace: Workspace, options: { provisional?: boolean } = {}): Promise<boolean> {
    const result = await this.ctx.db
      .insertInto('workspaces')
      .values({ ...workspaceRow(workspace), provisional: bit(options.provisional ?? false) })
      .onConflict((oc) => oc.column('id').doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  async presence(id: string): Promise<WorkspacePresence> {
    const row = await this.ctx.db
      .selectFrom('workspaces')
      .select('provisional')
      .where('id', '=', id)
      .executeTakeFirst();
    return row === undefined ? 'absent' : toBool(row.provisional) ? 'provisional' : 'present';
  }

  async adopt(id: string): Promise<boolean> {
    const result = await this.ctx.db
      .updateTable('workspaces')
      .set({ provisional: bit(false) })
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async deleteUnused(id: string, createdAt: string, keptContext: string): Promise<boolean> {
    const { db, engine } = this.ctx;
    let row = db
      .selectFrom('workspaces')
      .select('id')
      .where('id', '=', id)
      .where('created_at', '=', createdAt)
      .where('provisional', '=', bit(true));
    // Held until the transaction ends, so that a call adopting the workspace meanwhile (`adopt`) either came first
    // (and the row no longer matches) or waits, finds no workspace, and creates it again. SQLite's transactions
    // already run one at a time (ImmediateSqliteDialect).
    if (engine.dialect === 'postgres') row = row.forUpdate();
    if (!(await row.executeTakeFirst())) return false;
    for (const table of WORKSPACE_CONTENT) {
      let held = db.selectFrom(table).select(sql<number>`1`.as('held')).where('workspace_id', '=', id);
      if (table === 'contexts') held = held.where('id', '<>', keptContext);
      if (await held.limit(1).executeTakeFirst()) return false;
    }
    return this.delete(id);
  }

  async get(id: string): Promise<Workspace | null> {
    const row = await this.ctx.db.selectFrom('workspaces').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toWorkspace(row) : null;
  }

  async list(ids?: readonly string[]): Promise<Workspace[]> {
    if (ids?.length === 0) return [];
    let query = this.ctx.db.selectFrom('workspaces').selectAll();
    if (ids) query = query.where('id', 'in', [...ids]);
    const rows = await query.orderBy('created_at').orderBy('id').execute();
    return rows.map(toWorkspace);
  }

  async update(
    id: string,
    patch: Partial<Pick<Workspace, 'name' | 'settings' | 'updated_at'>>,
  ): Promise<Workspace | null> {
    const set: Record<string, string> = {};
    if (patch.name !== undefined) set.name = patch.name;
    if (patch.settings !== undefined) set.settings = json(patch.settings);
    if (patch.updated_at !== undefined) set.updated_at = patch.updated_at;
    const row = await this.ctx.db
      .updateTable('workspaces')
      .set(set)
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
    return row ? toWorkspace(row) : null;
  }

  async delete(id: string): Promise<boolean> {
    const { db, engine } = this.ctx;
    // The keyword index is the one thing foreign keys cannot reach; every other table cascades.
    await engine.removeWorkspaceEntries(db, id);
    const result = await db.deleteFrom('workspaces').where('id', '=', id).executeTakeFirst();
    const deleted = Number(result.numDeletedRows) > 0;
    if (deleted) this.ctx.afterCommit(() => engine.onWorkspaceDropped(id));
    return deleted;
  }

  async memoryVersion(id: string): Promise<number> {
    const row = await this.ctx.db
      .selectFrom('memory_versions')
      .select('version')
      .where('workspace_id', '=', id)
      .executeTakeFirst();
    return row ? Number(row.version) : 0;
  }

  async bumpMemoryVersion(id: string): Promise<void> {
    await this.ctx.db
      .insertInto('memory_versions')
      .values({ workspace_id: id, version: 1 })
      .onConflict((oc) =>
        oc.column('workspace_id').doUpdateSet((eb) => ({ version: eb('memory_versions.version', '+', 1) })),
      )
      .execute();
  }
}

const toContext = (row: Selectable<ContextsTable>): Context => ({
  id: row.id,
  workspace_id: row.workspace_id,
  name: row.name,
  description: row.description,
  settings: parseJsonObject(row.settings),
  created_at: toIso(row.created_at),
  updated_at: toIso(row.updated_at),
});

const contextRow = (c: Context) => ({ ...c, settings: json(c.settings) });

export class SqlContextStore implements ContextStore {
  constructor(private readonly ctx: SqlContext) {}

  async create(context: Context): Promise<boolean> {
    const result = await this.ctx.db
      .insertInto('contexts')
      .values(contextRow(context))
      .onConflict((oc) => oc.columns(['workspace_id', 'id']).doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  async get(workspaceId: string, id: string): Promise<Context | null> {
    const row = await this.ctx.db
      .selectFrom('contexts')
      .selectAll()
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? toContext(row) : null;
  }

  async list(workspaceId: string): Promise<Context[]> {
    const rows = await this.ctx.db
      .selectFrom('contexts')
      .selectAll()
      .where('workspace_id', '=', workspaceId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return rows.map(toContext);
  }
}

import type { Selectable } from 'kysely';
import type { ContextsTable, WorkspacesTable } from '../database.js';
import { json, parseJsonObject, toIso } from '../rows.js';
import type { Context, ContextStore, Workspace, WorkspaceStore } from '../types.js';
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

export class SqlWorkspaceStore implements WorkspaceStore {
  constructor(private readonly ctx: SqlContext) {}

  async create(workspace: Workspace): Promise<void> {
    await this.ctx.db.insertInto('workspaces').values(workspaceRow(workspace)).execute();
  }

  async ensure(workspace: Workspace): Promise<void> {
    await this.ctx.db
      .insertInto('workspaces')
      .values(workspaceRow(workspace))
      .onConflict((oc) => oc.column('id').doNothing())
      .execute();
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

  async create(context: Context): Promise<void> {
    await this.ctx.db.insertInto('contexts').values(contextRow(context)).execute();
  }

  async ensure(context: Context): Promise<void> {
    await this.ctx.db
      .insertInto('contexts')
      .values(contextRow(context))
      .onConflict((oc) => oc.columns(['workspace_id', 'id']).doNothing())
      .execute();
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

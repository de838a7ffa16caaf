import type { Selectable } from 'kysely';
import type { McpServersTable } from '../database.js';
import { bit, json, parseJson, parseJsonObject, toBool, toIso, toIsoOrNull } from '../rows.js';
import type { McpScope, McpServerEntry, McpServerPatch, McpServerStore, McpTransport, RegistryViewer, ScopedFilter, SourceMode } from '../types.js';
import type { SqlContext } from './context.js';
import { scopeKey, visibleTo } from './scoped.js';

const toEntry = (row: Selectable<McpServersTable>): McpServerEntry => ({
  id: row.id,
  tenant_id: row.tenant_id,
  scope: row.scope as McpScope,
  workspace_id: row.workspace_id,
  user_id: row.user_id,
  name: row.name,
  description: row.description,
  transport: row.transport as McpTransport,
  command: row.command,
  args: parseJson<string[]>(row.args),
  url: row.url,
  env_keys: parseJson<string[]>(row.env_keys),
  header_keys: parseJson<string[]>(row.header_keys),
  sealed_secrets: row.sealed_secrets,
  source_mode: row.source_mode as SourceMode,
  enabled: toBool(row.enabled),
  metadata: parseJsonObject(row.metadata),
  last_synced_at: toIsoOrNull(row.last_synced_at),
  created_at: toIso(row.created_at),
  updated_at: toIso(row.updated_at),
});

const patchValues = (patch: McpServerPatch) => {
  const { args, env_keys, header_keys, enabled, metadata, ...rest } = patch;
  return {
    ...rest,
    ...(args === undefined ? {} : { args: json(args) }),
    ...(env_keys === undefined ? {} : { env_keys: json(env_keys) }),
    ...(header_keys === undefined ? {} : { header_keys: json(header_keys) }),
    ...(enabled === undefined ? {} : { enabled: bit(enabled) }),
    ...(metadata === undefined ? {} : { metadata: json(metadata) }),
  };
};

export class SqlMcpServerStore implements McpServerStore {
  constructor(private readonly ctx: SqlContext) {}

  async create(entry: McpServerEntry): Promise<boolean> {
    const inserted = await this.ctx.db
      .insertInto('mcp_servers')
      .values({
        ...entry,
        scope_key: scopeKey(entry),
        args: json(entry.args),
        env_keys: json(entry.env_keys),
        header_keys: json(entry.header_keys),
        enabled: bit(entry.enabled),
        metadata: json(entry.metadata),
      })
      .onConflict((oc) => oc.columns(['scope_key', 'name']).doNothing())
      .returning('id')
      .executeTakeFirst();
    return inserted !== undefined;
  }

  async get(id: string): Promise<McpServerEntry | null> {
    const row = await this.ctx.db.selectFrom('mcp_servers').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toEntry(row) : null;
  }

  async listVisible(viewer: RegistryViewer, filter: ScopedFilter = {}): Promise<McpServerEntry[]> {
    let q = this.ctx.db.selectFrom('mcp_servers').selectAll().where(visibleTo('mcp_servers', viewer));
    if (filter.names !== undefined) {
      if (filter.names.length === 0) return [];
      q = q.where('name', 'in', filter.names);
    }
    if (filter.scope !== undefined) q = q.where('scope', '=', filter.scope);
    const rows = await q.orderBy('name').orderBy('id').execute();
    return rows.map(toEntry);
  }

  async update(id: string, patch: McpServerPatch): Promise<McpServerEntry | null> {
    const row = await this.ctx.db.updateTable('mcp_servers').set(patchValues(patch)).where('id', '=', id).returningAll().executeTakeFirst();
    return row ? toEntry(row) : null;
  }

  async delete(id: string): Promise<boolean> {
    const result = await this.ctx.db.deleteFrom('mcp_servers').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}

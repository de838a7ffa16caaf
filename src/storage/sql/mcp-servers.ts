import type { Expression, Selectable, SqlBool } from 'kysely';
import type { McpServersTable } from '../database.js';
import { bit, json, parseJson, parseJsonObject, toBool, toIso, toIsoOrNull } from '../rows.js';
import type { McpScope, McpServerEntry, McpServerPatch, McpServerStore, McpTransport, SourceMode } from '../types.js';
import type { SqlContext } from './context.js';
import { SqlScopedStore } from './scoped.js';

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

/** MCP server entries: the scoped table's queries (SqlScopedStore) over the `mcp_servers` columns. */
export class SqlMcpServerStore extends SqlScopedStore<'mcp_servers', McpServerEntry> implements McpServerStore {
  constructor(ctx: SqlContext) {
    super(ctx, 'mcp_servers');
  }

  protected async selectWhere(where: Expression<SqlBool>): Promise<McpServerEntry[]> {
    const rows = await this.ctx.db
      .selectFrom('mcp_servers')
      .selectAll()
      .where(where)
      .orderBy('name')
      .orderBy('id')
      .execute();
    return rows.map(toEntry);
  }

  create(entry: McpServerEntry): Promise<boolean> {
    const { args, env_keys, header_keys, enabled, metadata } = entry;
    return this.insertUnlessTaken({
      ...entry,
      args: json(args),
      env_keys: json(env_keys),
      header_keys: json(header_keys),
      enabled: bit(enabled),
      metadata: json(metadata),
    });
  }

  async update(id: string, patch: McpServerPatch): Promise<McpServerEntry | null> {
    const row = await this.ctx.db
      .updateTable('mcp_servers')
      .set(patchValues(patch))
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
    return row ? toEntry(row) : null;
  }
}

import type { Kysely } from 'kysely';
import { columnTypes, type SqlDialect } from './column-types.js';

/** Registries: applications and their workspace links, skills and their files, MCP server entries, data providers. */
export async function up(db: Kysely<any>, dialect: SqlDialect): Promise<void> {
  const t = columnTypes(dialect);

  // Applications are tenant-level; a link enables one in a workspace, with overrides of its config.
  await db.schema
    .createTable('applications')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('app_type', 'text', (c) => c.notNull())
    .addColumn('enabled', t.bool, (c) => c.notNull())
    .addColumn('config', t.json, (c) => c.notNull())
    .addColumn('metadata', t.json, (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('applications_created').on('applications').columns(['created_at', 'id']).execute();

  await db.schema
    .createTable('application_workspaces')
    .addColumn('application_id', 'text', (c) => c.notNull().references('applications.id').onDelete('cascade'))
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('enabled', t.bool, (c) => c.notNull())
    .addColumn('config_overrides', t.json, (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .addPrimaryKeyConstraint('application_workspaces_pk', ['application_id', 'workspace_id'])
    .execute();
  await db.schema
    .createIndex('application_workspaces_ws')
    .on('application_workspaces')
    .column('workspace_id')
    .execute();

  // Scoped entries (skills, MCP servers): workspace_id and user_id are null above their scope. `scope_key` spells
  // scope + owners without nulls, so one unique constraint holds a name once per scope and owner on both engines.
  await db.schema
    .createTable('skills')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('scope_key', 'text', (c) => c.notNull())
    .addColumn('workspace_id', 'text', (c) => c.references('workspaces.id').onDelete('cascade'))
    .addColumn('user_id', 'text')
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('version', 'text')
    .addColumn('description', 'text')
    .addColumn('source_mode', 'text', (c) => c.notNull())
    .addColumn('metadata', t.json, (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .addUniqueConstraint('skills_scoped_name', ['scope_key', 'name'])
    .execute();
  await db.schema.createIndex('skills_visible').on('skills').columns(['workspace_id', 'name']).execute();

  // Every file of a skill, SKILL.md (the manifest) included.
  await db.schema
    .createTable('skill_files')
    .addColumn('skill_id', 'text', (c) => c.notNull().references('skills.id').onDelete('cascade'))
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('content', t.bytes, (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .addPrimaryKeyConstraint('skill_files_pk', ['skill_id', 'path'])
    .execute();

  // env and headers values are sealed (AES-256-GCM) in `sealed_secrets`; only their names are stored in clear.
  await db.schema
    .createTable('mcp_servers')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('scope_key', 'text', (c) => c.notNull())
    .addColumn('workspace_id', 'text', (c) => c.references('workspaces.id').onDelete('cascade'))
    .addColumn('user_id', 'text')
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('transport', 'text', (c) => c.notNull())
    .addColumn('command', 'text')
    .addColumn('args', t.json, (c) => c.notNull())
    .addColumn('url', 'text')
    .addColumn('env_keys', t.json, (c) => c.notNull())
    .addColumn('header_keys', t.json, (c) => c.notNull())
    .addColumn('sealed_secrets', 'text')
    .addColumn('source_mode', 'text', (c) => c.notNull())
    .addColumn('enabled', t.bool, (c) => c.notNull())
    .addColumn('metadata', t.json, (c) => c.notNull())
    .addColumn('last_synced_at', t.timestamp)
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .addUniqueConstraint('mcp_servers_scoped_name', ['scope_key', 'name'])
    .execute();
  await db.schema.createIndex('mcp_servers_visible').on('mcp_servers').columns(['workspace_id', 'name']).execute();

  await db.schema
    .createTable('data_providers')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('provider_type', 'text', (c) => c.notNull())
    .addColumn('connection_args', t.json, (c) => c.notNull())
    .addColumn('sealed_args', 'text')
    .addColumn('schedule', 'text')
    .addColumn('metadata', t.json, (c) => c.notNull())
    .addColumn('last_synced_at', t.timestamp)
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('data_providers_ws')
    .on('data_providers')
    .columns(['workspace_id', 'created_at'])
    .execute();
}

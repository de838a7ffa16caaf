import { sql, type SqlBool } from 'kysely';
import type { RegistryViewer, ScopedOwner } from '../types.js';

/** Scope and owners without nulls: what the unique (scope_key, name) constraint of a scoped table compares. */
export const scopeKey = (owner: ScopedOwner): string => `${owner.scope}:${owner.workspace_id ?? ''}:${owner.user_id ?? ''}`;

/**
 * Entries of the viewer's workspace or of none, and of the viewer's user or of none: what precedence chooses
 * among. The same predicate serves every scoped table (skills, MCP servers).
 */
export function visibleTo(table: 'skills' | 'mcp_servers', viewer: RegistryViewer) {
  const workspace = sql.ref(`${table}.workspace_id`);
  const user = sql.ref(`${table}.user_id`);
  const ownUser = viewer.userId === null ? sql`` : sql` OR ${user} = ${viewer.userId}`;
  return sql<SqlBool>`(${workspace} = ${viewer.workspaceId} OR ${workspace} IS NULL) AND (${user} IS NULL${ownUser})`;
}

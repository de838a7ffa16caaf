import { Type, type Static } from 'typebox';
import { JsonObject, Nullable, StringEnum, Timestamp } from './primitives.js';
import { ScopedFields, SourceModeField } from './registry.js';

/** MCP scopes, highest precedence first: a user's entry in a workspace, the workspace's, the user's, global. */
export const MCP_SCOPE_NAMES = ['local', 'project', 'user', 'global'] as const;
export type McpScope = (typeof MCP_SCOPE_NAMES)[number];

export const MCP_TRANSPORTS = ['stdio', 'http', 'sse', 'streamable-http'] as const;
export type McpTransport = (typeof MCP_TRANSPORTS)[number];

/**
 * An MCP server entry as stored, declared once. The API shows its env variables and headers by name with their
 * values masked or revealed instead of the names and the sealed values (src/http/schemas/mcp-server.ts).
 */
export const McpServerRecord = Type.Object({
  id: Type.String({ description: 'mcp_…' }),
  tenant_id: Type.String(),
  name: Type.String(),
  description: Nullable(Type.String()),
  ...ScopedFields(MCP_SCOPE_NAMES),
  transport: StringEnum(MCP_TRANSPORTS),
  command: Nullable(Type.String()),
  args: Type.Array(Type.String()),
  url: Nullable(Type.String()),
  env_keys: Type.Array(Type.String(), {
    description: 'names of the env variables; their values are sealed in sealed_secrets',
  }),
  header_keys: Type.Array(Type.String(), {
    description: 'names of the headers; their values are sealed in sealed_secrets',
  }),
  sealed_secrets: Nullable(
    Type.String({ description: '`{env, headers}` sealed with the node’s secret key; null when both are empty' }),
  ),
  source_mode: SourceModeField,
  enabled: Type.Boolean(),
  metadata: JsonObject,
  last_synced_at: Nullable(Timestamp),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type McpServerEntry = Static<typeof McpServerRecord>;

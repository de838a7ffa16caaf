import { Type } from 'typebox';
import { MCP_SCOPE_NAMES, MCP_TRANSPORTS as TRANSPORTS, McpServerRecord } from '../../schemas/mcp-server.js';
import { JsonObject, Nullable, StringEnum, WorkspaceIdField } from './common.js';
import {
  EntryName,
  Listed,
  ResolveBody,
  Resolved,
  ScopedListQuery,
  SourceMode,
  SyncTimes,
  UserIdField,
} from './registry.js';

export { MCP_SCOPE_NAMES };

const Transport = StringEnum(TRANSPORTS);
const StringMap = (description: string) =>
  Type.Record(Type.String(), Type.String({ maxLength: 32_768 }), { maxProperties: 200, description });
const Env = StringMap('environment variables; values are encrypted at rest and masked unless revealed');
const Headers = StringMap('HTTP headers; values are encrypted at rest and masked unless revealed');
const Command = Type.String({ minLength: 1, maxLength: 4096, description: 'what a stdio server runs' });
const Url = Type.String({
  pattern: '^https?://',
  maxLength: 4096,
  description: 'where an http, sse or streamable-http server listens',
});
const Args = Type.Array(Type.String({ maxLength: 4096 }), { maxItems: 200 });

const {
  env_keys: _envKeys,
  header_keys: _headerKeys,
  sealed_secrets: _sealed,
  ...shownFields
} = McpServerRecord.properties;

/** An MCP server entry as stored (src/schemas/mcp-server.ts), with its env variables and headers by name instead of sealed. */
export const McpServer = Type.Object(
  {
    ...shownFields,
    env: Type.Record(Type.String(), Type.String(), { description: 'values masked (********) unless revealed' }),
    headers: Type.Record(Type.String(), Type.String(), { description: 'values masked (********) unless revealed' }),
  },
  { title: 'McpServer' },
);

export const McpServerEnvelope = Type.Object({ mcp_server: McpServer });
export const McpServerList = Type.Object({ mcp_servers: Type.Array(Listed(McpServer)), total_count: Type.Integer() });

const Description = Type.String({ maxLength: 2000 });

export const CreateMcpServerBody = Type.Object(
  {
    name: EntryName,
    scope: Type.Optional(
      StringEnum(MCP_SCOPE_NAMES, {
        default: 'project',
        description:
          'local and project live in the workspace (local also needs user_id); user and global are tenant-level (admin key)',
      }),
    ),
    workspace_id: WorkspaceIdField,
    user_id: UserIdField,
    transport: Type.Optional(StringEnum(TRANSPORTS, { description: 'default: stdio with a command, http with a url' })),
    command: Type.Optional(Command),
    args: Type.Optional(Args),
    url: Type.Optional(Url),
    env: Type.Optional(Env),
    headers: Type.Optional(Headers),
    description: Type.Optional(Description),
    source_mode: Type.Optional(SourceMode),
    enabled: Type.Optional(Type.Boolean({ default: true })),
    metadata: Type.Optional(JsonObject),
  },
  { additionalProperties: false },
);

/** The connection fields of an update or a sync; a masked value (********) keeps the stored secret. */
const ConnectionFields = {
  transport: Type.Optional(Transport),
  command: Type.Optional(Nullable(Command)),
  args: Type.Optional(Args),
  url: Type.Optional(Nullable(Url)),
  env: Type.Optional(Env),
  headers: Type.Optional(Headers),
};

// No defaults here: a default would overwrite the stored value of a field the client did not send.
export const UpdateMcpServerBody = Type.Object(
  {
    ...ConnectionFields,
    description: Type.Optional(Nullable(Description)),
    source_mode: Type.Optional(SourceMode),
    enabled: Type.Optional(Type.Boolean()),
    metadata: Type.Optional(JsonObject),
  },
  {
    additionalProperties: false,
    minProperties: 1,
    description:
      'omitted fields stay; env and headers replace the whole map (send a masked value back to keep that secret)',
  },
);

/** One server of the `{"mcpServers": {…}}` configuration file. */
export const ConfigFileServer = Type.Object(
  {
    transport: Type.Optional(Transport),
    type: Type.Optional(StringEnum(TRANSPORTS, { description: 'what some clients call `transport`' })),
    command: Type.Optional(Command),
    args: Type.Optional(Args),
    env: Type.Optional(Env),
    url: Type.Optional(Url),
    headers: Type.Optional(Headers),
    description: Type.Optional(Description),
    disabled: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

export const ConfigFile = Type.Object(
  { mcpServers: Type.Record(Type.String(), ConfigFileServer) },
  { additionalProperties: false },
);

export const ImportBody = Type.Object(
  {
    mcpServers: Type.Record(Type.String(), ConfigFileServer, { maxProperties: 500 }),
    scope: Type.Optional(StringEnum(MCP_SCOPE_NAMES, { default: 'project' })),
    workspace_id: WorkspaceIdField,
    user_id: UserIdField,
    on_conflict: Type.Optional(
      StringEnum(['update', 'skip'] as const, {
        default: 'update',
        description: 'an entry of that name already at that scope: update it or leave it',
      }),
    ),
  },
  { additionalProperties: false },
);

export const ImportResponse = Type.Object({
  created: Type.Array(Type.String()),
  updated: Type.Array(Type.String()),
  skipped: Type.Array(Type.String()),
  mcp_servers: Type.Array(McpServer),
});

export const ExportQuery = Type.Object(
  {
    workspace_id: WorkspaceIdField,
    user_id: UserIdField,
    scope: Type.Optional(StringEnum(MCP_SCOPE_NAMES)),
    reveal_secrets: Type.Boolean({
      default: false,
      description: 'true: env and header values decrypted; otherwise masked',
    }),
  },
  { additionalProperties: false },
);

export const ListMcpServersQuery = ScopedListQuery(MCP_SCOPE_NAMES);
export const ResolveMcpServersBody = ResolveBody(EntryName);
export const ResolvedMcpServers = Resolved(
  'mcp_server',
  'mcp_servers',
  McpServer,
  'the winner of each name found, in the order asked, secrets decrypted',
);

export const McpServerParams = Type.Object({ server_id: Type.String({ minLength: 1, maxLength: 256 }) });

const Connection = Type.Object({
  transport: Transport,
  command: Nullable(Type.String()),
  args: Type.Array(Type.String()),
  url: Nullable(Type.String()),
  env: Type.Record(Type.String(), Type.String()),
  headers: Type.Record(Type.String(), Type.String()),
});

export const SyncMcpServerBody = Type.Object(
  {
    config: Type.Object(ConnectionFields, {
      additionalProperties: false,
      description: 'the connection as the client has it',
    }),
    modified_at: Type.String({ format: 'date-time', description: 'when the client’s copy last changed' }),
    ...SyncTimes,
  },
  { additionalProperties: false },
);

export const McpSyncResponse = Type.Object({
  action: StringEnum(['in_sync', 'pushed', 'pulled'] as const, {
    description: 'pushed: the client’s config is stored; pulled: take `config`',
  }),
  conflict: Type.Boolean({ description: 'both sides changed; the source mode chose' }),
  mcp_server: McpServer,
  config: Nullable(Connection),
  synced_at: Type.String({ format: 'date-time', description: 'send as `since` next time' }),
});

import { Type } from 'typebox';
import { invalid } from '../../errors.js';
import type { CoreServices } from '../../services.js';
import type { McpServerEntry } from '../../core/mcp-servers/service.js';
import { listedView, requestedNames, resolvedView } from '../registry-views.js';
import { registryCallers } from '../registry-callers.js';
import { commonErrors, ErrorResponse, WorkspaceQuery } from '../schemas/common.js';
import {
  ConfigFile,
  CreateMcpServerBody,
  ExportQuery,
  ImportBody,
  ImportResponse,
  ListMcpServersQuery,
  McpServerEnvelope,
  McpServerList,
  McpServerParams,
  McpSyncResponse,
  ResolvedMcpServers,
  ResolveMcpServersBody,
  SyncMcpServerBody,
  UpdateMcpServerBody,
} from '../schemas/mcp-server.js';
import { IDENTIFIER_RULE, isIdentifier } from '../../core/identifiers.js';
import type { App } from '../server.js';

const tags = ['mcp servers'];

/**
 * The MCP server registry: entries at local, project, user or global scope, resolved by precedence. env and header
 * values are encrypted at rest; they are decrypted by resolve and by export with reveal_secrets=true, and masked
 * everywhere else. Entries of a workspace are reached from it; user and global entries from anywhere, and changed
 * with the admin key only.
 */
export function mcpServerRoutes(app: App, services: CoreServices): void {
  const { scoped: scopedCaller, entry: entryCaller } = registryCallers(services, 'mcp_server');
  const registry = services.mcpServers;
  const masked = (entry: McpServerEntry) => registry.view(entry, false);
  const revealed = (entry: McpServerEntry) => registry.view(entry, true);

  app.post(
    '/mcp-servers',
    {
      schema: {
        tags,
        summary: 'Register an MCP server',
        body: CreateMcpServerBody,
        response: { 201: McpServerEnvelope, 409: ErrorResponse, ...commonErrors },
      },
    },
    async (request, reply) => {
      const caller = await scopedCaller(request, request.body);
      return reply.status(201).send({ mcp_server: masked(await registry.create(caller, request.body)) });
    },
  );

  app.get(
    '/mcp-servers',
    {
      schema: {
        tags,
        summary: 'MCP servers visible here: the precedence winner of each name (local, project, user, global)',
        querystring: ListMcpServersQuery,
        response: { 200: McpServerList, ...commonErrors },
      },
    },
    async (request) => {
      const q = request.query;
      const ranked = await registry.list(await scopedCaller(request, q), {
        scope: q.scope,
        includeShadowed: q.include_shadowed,
      });
      return {
        mcp_servers: ranked.slice(q.offset, q.offset + q.limit).map((r) => listedView(r, masked(r.entry))),
        total_count: ranked.length,
      };
    },
  );

  app.post(
    '/mcp-servers/resolve',
    {
      schema: {
        tags,
        summary: 'The precedence winner of each name, with env and headers decrypted',
        body: ResolveMcpServersBody,
        response: { 200: ResolvedMcpServers, ...commonErrors },
      },
    },
    async (request) => {
      const caller = await scopedCaller(request, request.body);
      const names = requestedNames(request.body);
      const { first, found, not_found } = resolvedView(names, await registry.resolve(caller, names), revealed);
      return { mcp_server: first, mcp_servers: found, not_found };
    },
  );

  app.post(
    '/mcp-servers/import',
    {
      schema: {
        tags,
        summary: 'Import the servers of a `{"mcpServers": {…}}` configuration file at one scope (all or nothing)',
        body: ImportBody,
        response: { 200: ImportResponse, 409: ErrorResponse, ...commonErrors },
      },
    },
    async (request) => {
      const { mcpServers, scope, on_conflict } = request.body;
      for (const name of Object.keys(mcpServers))
        if (!isIdentifier(name))
          throw invalid(`/mcpServers/${name}`, `the server name must be an identifier: ${IDENTIFIER_RULE}`);
      const caller = await scopedCaller(request, request.body);
      const report = await registry.import(
        caller,
        { mcpServers },
        { scope: scope ?? 'project', onConflict: on_conflict ?? 'update' },
      );
      return {
        created: report.created,
        updated: report.updated,
        skipped: report.skipped,
        mcp_servers: report.entries.map(masked),
      };
    },
  );

  app.get(
    '/mcp-servers/export',
    {
      schema: {
        tags,
        summary: 'The winners visible here as a `{"mcpServers": {…}}` configuration file',
        querystring: ExportQuery,
        response: { 200: ConfigFile, ...commonErrors },
      },
    },
    async (request) => {
      const q = request.query;
      return registry.export(await scopedCaller(request, q), { scope: q.scope, reveal: q.reveal_secrets });
    },
  );

  app.get(
    '/mcp-servers/:server_id',
    {
      schema: {
        tags,
        summary: 'An MCP server (secrets masked)',
        params: McpServerParams,
        querystring: WorkspaceQuery,
        response: { 200: McpServerEnvelope, ...commonErrors },
      },
    },
    async (request) => ({
      mcp_server: masked(
        await registry.get(await entryCaller(request, request.params.server_id), request.params.server_id),
      ),
    }),
  );

  // PATCH too: the client library sends its partial updates that way.
  for (const method of ['PUT', 'PATCH'] as const) {
    app.route({
      method,
      url: '/mcp-servers/:server_id',
      schema: {
        tags,
        summary: 'Change an MCP server; omitted fields stay',
        hide: method === 'PATCH',
        params: McpServerParams,
        querystring: WorkspaceQuery,
        body: UpdateMcpServerBody,
        response: { 200: McpServerEnvelope, ...commonErrors },
      },
      handler: async (request) => {
        const caller = await entryCaller(request, request.params.server_id);
        return { mcp_server: masked(await registry.update(caller, request.params.server_id, request.body)) };
      },
    });
  }

  app.delete(
    '/mcp-servers/:server_id',
    {
      schema: {
        tags,
        summary: 'Delete an MCP server',
        params: McpServerParams,
        querystring: WorkspaceQuery,
        response: { 204: Type.Null(), ...commonErrors },
      },
    },
    async (request, reply) => {
      await registry.delete(await entryCaller(request, request.params.server_id), request.params.server_id);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/mcp-servers/:server_id/sync',
    {
      schema: {
        tags,
        summary: 'Two-way sync of one server’s connection with the client’s copy',
        description:
          'Send the connection as you have it, when it last changed, and `since` = the `synced_at` of your last sync of it. The side that changed since wins; ' +
          'both changed: the source mode decides (server, filesystem = the client, mirrored = the later change). `pulled` hands back the server’s connection, secrets decrypted.',
        params: McpServerParams,
        querystring: WorkspaceQuery,
        body: SyncMcpServerBody,
        response: { 200: McpSyncResponse, ...commonErrors },
      },
    },
    async (request) => {
      const caller = await entryCaller(request, request.params.server_id);
      const { config, modified_at, since } = request.body;
      const report = await registry.sync(caller, request.params.server_id, {
        config,
        modified_at,
        since: since ?? null,
      });
      return {
        action: report.action,
        conflict: report.conflict,
        mcp_server: masked(report.entry),
        config: report.config,
        synced_at: report.synced_at,
      };
    },
  );
}

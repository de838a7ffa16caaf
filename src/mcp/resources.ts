import { ResourceTemplate, type McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import { authorizeWorkspace } from '../core/access/principal.js';
import type { ToolContext } from './caller.js';
import { protocolError } from './errors.js';

/** How many memories the recent-memories resource shows: a glance, not a listing (recall and export go further). */
const RECENT_MEMORIES = 20;

const json = (uri: URL, value: unknown): ReadResourceResult => ({
  contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(value) }],
});

const variable = (value: string | string[] | undefined): string =>
  Array.isArray(value) ? (value[0] ?? '') : (value ?? '');

/** Resources of every workspace the caller may use: its newest memories, and its schema (the vocabulary of memory types and links). */
export function registerResources(server: McpServer, context: ToolContext): void {
  const { services, caller } = context;
  const listed = (suffix: string, label: string) => async () => ({
    resources: (await services.workspaces.list(caller.principal)).map((workspace) => ({
      uri: `memd://workspaces/${workspace.id}/${suffix}`,
      name: `${workspace.id}: ${label}`,
      mimeType: 'application/json',
    })),
  });
  const reading =
    (read: (workspaceId: string) => Promise<unknown>) =>
    async (uri: URL, variables: Record<string, string | string[]>): Promise<ReadResourceResult> => {
      try {
        return json(uri, await read(decodeURIComponent(variable(variables.workspace_id))));
      } catch (error) {
        throw protocolError(error);
      }
    };

  server.registerResource(
    'recent-memories',
    new ResourceTemplate('memd://workspaces/{workspace_id}/memories/recent', {
      list: listed('memories/recent', 'recent memories'),
    }),
    {
      title: 'Recent memories',
      description: `The ${RECENT_MEMORIES} newest active memories of a workspace, and how many it has`,
      mimeType: 'application/json',
    },
    reading(async (workspaceId) => {
      // As GET /v1/memories?workspace_id=…: the workspace the caller names, resolved and authorized alike.
      const access = await context.scope(workspaceId);
      const listing = await services.memories.list(access.workspaceId, 'active', {}, { limit: RECENT_MEMORIES });
      return { workspace_id: access.workspaceId, memories: listing.memories, total_count: listing.total };
    }),
  );

  server.registerResource(
    'workspace-schema',
    new ResourceTemplate('memd://workspaces/{workspace_id}/schema', { list: listed('schema', 'schema') }),
    {
      title: 'Workspace schema',
      description:
        'Memory types and subtypes, and the relationship types (by category) that associate and traverse take',
      mimeType: 'application/json',
    },
    reading(async (workspaceId) => {
      authorizeWorkspace(caller.principal, workspaceId);
      return services.workspaces.schema(workspaceId);
    }),
  );
}

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import { API_VERSION } from '../version.js';

/**
 * How long a relayed tool call may take: longer than the SDK's default minute, as a context_rlm call runs a model
 * several times. The agent's own client applies its limit first.
 */
const TOOL_CALL_TIMEOUT_MS = 15 * 60_000;

export interface RelayTarget {
  /** memd's base URL (`http://host:61001`), or its MCP endpoint (`…/mcp`). */
  url: string;
  apiKey?: string | undefined;
  /** Sent as X-Workspace-ID: the workspace of calls that name none. */
  workspace?: string | undefined;
}

/** The MCP endpoint of a memd base URL; a URL already ending in /mcp is kept. */
export function mcpEndpointOf(url: string): URL {
  const base = new URL(url);
  if (!/\/mcp\/?$/.test(base.pathname)) base.pathname = `${base.pathname.replace(/\/+$/, '')}/mcp`;
  return base;
}

/**
 * A stdio MCP server that forwards every request to a remote memd's /mcp: the tools, resources and prompts are the
 * remote's, declared once there, so this side holds no second copy of them. Connects (and so authenticates) before
 * it serves: a wrong URL or key fails at start, not at the first tool call.
 */
export async function connectRelay(target: RelayTarget): Promise<{ server: Server; upstream: Client }> {
  const headers: Record<string, string> = {};
  if (target.apiKey) headers.authorization = `Bearer ${target.apiKey}`;
  if (target.workspace) headers['x-workspace-id'] = target.workspace;
  const upstream = new Client({ name: 'memd-stdio-relay', version: API_VERSION });
  await upstream.connect(new StreamableHTTPClientTransport(mcpEndpointOf(target.url), { requestInit: { headers } }));

  const capabilities = upstream.getServerCapabilities() ?? {};
  const server = new Server(upstream.getServerVersion() ?? { name: 'memd', version: API_VERSION }, {
    capabilities,
    instructions: upstream.getInstructions(),
  });
  if (capabilities.tools) {
    server.setRequestHandler(ListToolsRequestSchema, (request) => upstream.listTools(request.params));
    server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
      try {
        return (await upstream.callTool(request.params, undefined, {
          timeout: TOOL_CALL_TIMEOUT_MS,
        })) as CallToolResult;
      } catch (error) {
        if (error instanceof McpError) throw error;
        // memd could not be reached, or refused the request outright (a revoked key, the rate limit): the model is told.
        const message = error instanceof Error ? error.message : String(error);
        return {
          isError: true,
          content: [{ type: 'text', text: JSON.stringify({ error: { code: 'upstream_unavailable', message } }) }],
        };
      }
    });
  }
  if (capabilities.resources) {
    server.setRequestHandler(ListResourcesRequestSchema, (request) => upstream.listResources(request.params));
    server.setRequestHandler(ListResourceTemplatesRequestSchema, (request) =>
      upstream.listResourceTemplates(request.params),
    );
    server.setRequestHandler(ReadResourceRequestSchema, (request) => upstream.readResource(request.params));
  }
  if (capabilities.prompts) {
    server.setRequestHandler(ListPromptsRequestSchema, (request) => upstream.listPrompts(request.params));
    server.setRequestHandler(GetPromptRequestSchema, (request) => upstream.getPrompt(request.params));
  }
  return { server, upstream };
}

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
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
import { CallToolRequest, toolArguments } from './call-tool-request.js';

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
    server.setRequestHandler(
      ListToolsRequestSchema,
      relayed((request) => upstream.listTools(request.params)),
    );
    server.setRequestHandler(CallToolRequest, async (request): Promise<CallToolResult> => {
      const params = { ...request.params, arguments: toolArguments(request) };
      try {
        return (await upstream.callTool(params, undefined, {
          timeout: TOOL_CALL_TIMEOUT_MS,
        })) as CallToolResult;
      } catch (error) {
        if (error instanceof McpError) throw asSentUpstream(error);
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
    server.setRequestHandler(
      ListResourcesRequestSchema,
      relayed((request) => upstream.listResources(request.params)),
    );
    server.setRequestHandler(
      ListResourceTemplatesRequestSchema,
      relayed((request) => upstream.listResourceTemplates(request.params)),
    );
    server.setRequestHandler(
      ReadResourceRequestSchema,
      relayed((request) => upstream.readResource(request.params)),
    );
  }
  if (capabilities.prompts) {
    server.setRequestHandler(
      ListPromptsRequestSchema,
      relayed((request) => upstream.listPrompts(request.params)),
    );
    server.setRequestHandler(
      GetPromptRequestSchema,
      relayed((request) => upstream.getPrompt(request.params)),
    );
  }
  return { server, upstream };
}

/**
 * The remote's protocol error as the remote sent it. The SDK's client turns an error answer into an McpError, whose
 * constructor puts "MCP error <code>: " before the message the remote sent (which its own McpError had prefixed
 * already): passed on as it is, an agent would read the prefix twice.
 */
function asSentUpstream(error: McpError): McpError {
  const sent = new McpError(error.code, '', error.data);
  sent.message = error.message.replace(`MCP error ${error.code}: `, '');
  return sent;
}

/** A handler that answers with the remote's answer, and with its protocol errors as it sent them. */
const relayed =
  <Request, Result>(forward: (request: Request) => Promise<Result>) =>
  async (request: Request): Promise<Result> => {
    try {
      return await forward(request);
    } catch (error) {
      throw error instanceof McpError ? asSentUpstream(error) : error;
    }
  };

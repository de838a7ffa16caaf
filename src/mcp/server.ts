import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ErrorCode, ListToolsRequestSchema, McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from '../core/logger.js';
import type { CoreServices } from '../services.js';
import { API_VERSION } from '../version.js';
import { CallToolRequest, toolArguments } from './call-tool-request.js';
import { toolContext, type McpCaller } from './caller.js';
import { INSTRUCTIONS } from './guidance.js';
import { registerPrompts } from './prompts.js';
import { registerResources } from './resources.js';
import { listingOf, toolError, toolResult } from './tool.js';
import { TOOLS } from './tools/index.js';

const BY_NAME = new Map(TOOLS.map((tool) => [tool.name, tool]));
const LISTING = { tools: TOOLS.map(listingOf) };

/**
 * memd's MCP server for one caller: every tool, resource and prompt, each over the core operation its HTTP route
 * calls. Built per caller (per request over streamable HTTP, once per stdio process): the caller's identity is part
 * of it, as a request's principal is part of an HTTP call.
 *
 * Tools are served by the SDK's request handlers rather than `registerTool`, which takes zod schemas: their
 * arguments are the API's TypeBox schemas, listed as they are and checked by the API's own body validator, so a
 * field is declared once and an argument is refused (validation_error, with details) exactly as a body would be.
 */
export function createMcpServer(services: CoreServices, caller: McpCaller, log: Logger): McpServer {
  const server = new McpServer(
    { name: 'memd', version: API_VERSION },
    { instructions: INSTRUCTIONS, capabilities: { tools: {} } },
  );
  server.server.setRequestHandler(ListToolsRequestSchema, () => LISTING);
  server.server.setRequestHandler(CallToolRequest, async (request): Promise<CallToolResult> => {
    const tool = BY_NAME.get(request.params.name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `no tool named '${request.params.name}'`);
    const args = toolArguments(request);
    // One per call, as a request over HTTP: a call that fails leaves no workspace it created.
    const context = toolContext(services, caller);
    try {
      const refused = tool.check(args);
      if (refused) throw refused;
      const result = await tool.run(args as never, context);
      // An acknowledged write is a durable write, as over HTTP (whose onSend hook waits for the same barrier).
      if (tool.effect !== 'reads') await services.syncWrites();
      return toolResult(result);
    } catch (error) {
      await context.abandon();
      return toolError(error, log, tool.name);
    }
  });
  registerResources(server, services, caller);
  registerPrompts(server, services, caller);
  // The SDK advertises list changes for what is registered; this server never sends them (over HTTP it is built per
  // request and keeps no stream), so a client must not wait for one: it lists again when it needs to.
  server.server.registerCapabilities({
    tools: { listChanged: false },
    resources: { listChanged: false },
    prompts: { listChanged: false },
  });
  return server;
}

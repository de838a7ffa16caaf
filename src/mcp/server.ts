import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from '../core/logger.js';
import type { CoreServices } from '../services.js';
import { API_VERSION } from '../version.js';
import { toolContext, type McpCaller } from './caller.js';
import { INSTRUCTIONS } from './guidance.js';
import { inputSchemaOf } from './input-schema.js';
import { registerPrompts } from './prompts.js';
import { registerResources } from './resources.js';
import { annotationsOf, toolError, toolResult } from './tool.js';
import { TOOLS } from './tools/index.js';

/**
 * memd's MCP server for one caller: every tool, resource and prompt, each over the core operation its HTTP route
 * calls. Built per caller (per request over streamable HTTP, once per stdio process): the caller's identity is part
 * of it, as a request's principal is part of an HTTP call.
 */
export function createMcpServer(services: CoreServices, caller: McpCaller, log: Logger): McpServer {
  const server = new McpServer({ name: 'memd', version: API_VERSION }, { instructions: INSTRUCTIONS, capabilities: { tools: {}, resources: {}, prompts: {} } });
  const context = toolContext(services, caller);
  for (const tool of TOOLS) {
    server.registerTool(
      tool.name,
      { title: tool.title, description: tool.description, inputSchema: inputSchemaOf(tool.input), annotations: annotationsOf(tool) },
      async (args: unknown): Promise<CallToolResult> => {
        try {
          const result = await tool.run(args as never, context);
          // An acknowledged write is a durable write, as over HTTP (whose onSend hook waits for the same barrier).
          if (tool.effect !== 'reads') await services.syncWrites();
          return toolResult(result);
        } catch (error) {
          return toolError(error, log, tool.name);
        }
      },
    );
  }
  registerResources(server, context);
  registerPrompts(server, context);
  return server;
}

import type { FastifyReply, FastifyRequest } from 'fastify';
import { limitRequestRate } from '../http/rate-limit.js';
import { header } from '../http/request-context.js';
import type { App } from '../http/server.js';
import type { CoreServices } from '../services.js';

/**
 * The MCP SDK (with zod-to-json-schema) and our tools: 88 modules a server that is never asked over MCP need not load
 * at start (NOTES.md, "Tests and CI"), so they load with the first request to /mcp.
 */
const loadMcp = async () => {
  const [{ StreamableHTTPServerTransport }, { createMcpServer }] = await Promise.all([
    import('@modelcontextprotocol/sdk/server/streamableHttp.js'),
    import('./server.js'),
  ]);
  return { StreamableHTTPServerTransport, createMcpServer };
};
let mcp: ReturnType<typeof loadMcp> | undefined;

/** What a stateless server answers to the requests of a stateful session (GET's event stream, DELETE's end). */
const NOT_ALLOWED = {
  jsonrpc: '2.0',
  error: { code: -32000, message: 'this MCP server is stateless: POST each request to /mcp' },
  id: null,
};

/**
 * MCP over streamable HTTP at /mcp, on the API's own server: the same keys (the server's onRequest hook has already
 * authenticated the call, or answered 401), the same rate limit, the same workspaces. Stateless: each POST gets a
 * fresh MCP server and transport and answers with one JSON response, so any node behind a load balancer serves any
 * request and nothing lives between them (sessions of memd itself are records in the database, named by id).
 */
export async function mountStreamableHttp(app: App, services: CoreServices): Promise<void> {
  await app.register(async (scope) => {
    await limitRequestRate(scope, services.config.rateLimit.perMinute);
    scope.post('/mcp', { schema: { hide: true } }, (request, reply) => serve(services, request, reply));
    const notAllowed = async (_request: FastifyRequest, reply: FastifyReply) =>
      reply.status(405).header('allow', 'POST').send(NOT_ALLOWED);
    scope.get('/mcp', { schema: { hide: true } }, notAllowed);
    scope.delete('/mcp', { schema: { hide: true } }, notAllowed);
  });
}

/** JSON-RPC 2.0's answer to an empty batch: one Invalid Request error. */
const EMPTY_BATCH = {
  jsonrpc: '2.0',
  error: { code: -32600, message: 'an empty batch ([]) holds no request' },
  id: null,
};

async function serve(services: CoreServices, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  // The SDK reads `[]` as a batch of notifications only and answers 202, as if something had been accepted.
  if (Array.isArray(request.body) && request.body.length === 0) return void reply.status(400).send(EMPTY_BATCH);
  mcp ??= loadMcp();
  const { StreamableHTTPServerTransport, createMcpServer } = await mcp;
  const server = createMcpServer(
    services,
    { principal: request.principal, workspace: header(request, 'x-workspace-id') },
    request.log,
  );
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  // The SDK writes the response itself: headers set so far (CORS) go onto the raw response first.
  reply.hijack();
  for (const [name, value] of Object.entries(reply.getHeaders()))
    if (value !== undefined) reply.raw.setHeader(name, value);
  reply.raw.once('close', () => void server.close());
  try {
    await server.connect(transport);
    await transport.handleRequest(request.raw, reply.raw, request.body);
  } catch (error) {
    request.log.error({ err: error }, 'MCP request failed');
    if (!reply.raw.headersSent) reply.raw.writeHead(500, { 'content-type': 'application/json' });
    reply.raw.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32603, message: 'internal error' }, id: null }));
  }
}

import type { ServerOptions } from 'node:http';
import cors from '@fastify/cors';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, {
  type FastifyBaseLogger,
  type FastifyInstance,
  type RawReplyDefaultExpression,
  type RawRequestDefaultExpression,
  type RawServerDefault,
} from 'fastify';
import { AppError } from '../errors.js';
import type { CoreServices } from '../services.js';
import { API_VERSION } from '../version.js';
import { answerConnectionError } from './connection-errors.js';
import { refuseEncodedBodies } from './content-encoding.js';
import { handleError } from './errors.js';
import { finishOpenApiDocument } from './openapi.js';
import { observeRequests, requestId } from './observability.js';
import { acceptJsonBodies } from './json-body.js';
import { limitRequestRate } from './rate-limit.js';
import { presentedKey } from './request-context.js';
import { apiKeyRoutes } from './routes/api-keys.js';
import { applicationRoutes } from './routes/applications.js';
import { associationRoutes } from './routes/associations.js';
import { contextRoutes } from './routes/context.js';
import { contradictionRoutes } from './routes/contradictions.js';
import { documentRoutes } from './routes/documents.js';
import { dataProviderRoutes } from './routes/data-providers.js';
import { entityRoutes } from './routes/entities.js';
import { erasureRoutes } from './routes/erasure.js';
import { graphRoutes } from './routes/graph.js';
import { healthRoutes } from './routes/health.js';
import { knowledgebaseRoutes } from './routes/knowledgebase.js';
import { mcpServerRoutes } from './routes/mcp-servers.js';
import { notOfferedRoutes } from './routes/not-offered.js';
import { memoryRoutes } from './routes/memories.js';
import { metricsRoutes } from './routes/metrics.js';
import { portabilityRoutes } from './routes/portability.js';
import { recallRoutes } from './routes/recall.js';
import { sessionRoutes } from './routes/sessions.js';
import { skillRoutes } from './routes/skills.js';
import { threadRoutes } from './routes/threads.js';
import { workspaceRoutes } from './routes/workspaces.js';
import { abandonCreatedWorkspaces } from './request-context.js';
import { uiRoutes } from './ui.js';
import { serializerCompiler } from './serialization.js';
import { endConnectionsOnClose } from './end-connections-on-close.js';
import { validatorCompiler } from './validation.js';
import { acceptWorkspaceQuery } from './workspace-query.js';

/** The methods a 405's Allow header may name (OPTIONS is every path's, answered by CORS). */
const ANSWERED_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

export type App = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

export { API_VERSION };

/** Route plugins under /v1; each declares its schemas, which validate requests and generate the OpenAPI document. */
const V1_ROUTES = [
  memoryRoutes,
  recallRoutes,
  workspaceRoutes,
  portabilityRoutes,
  sessionRoutes,
  apiKeyRoutes,
  threadRoutes,
  entityRoutes,
  contradictionRoutes,
  associationRoutes,
  graphRoutes,
  knowledgebaseRoutes,
  contextRoutes,
  documentRoutes,
  applicationRoutes,
  skillRoutes,
  mcpServerRoutes,
  dataProviderRoutes,
  erasureRoutes,
  notOfferedRoutes,
];

/**
 * How long receiving a request may take (MEMD_REQUEST_TIMEOUT_SECONDS). Node's timer stops once the request is in,
 * so a streamed export is not cut off. Node honours only the value the server was built with (set afterwards, as
 * fastify's `requestTimeout` is, it was never applied); its headers keep Node's 60 s; and it looks for requests past
 * their time every 30 s by default, which a timeout of seconds would wait for: a tenth of the timeout, at least 1 s.
 */
function receivingLimits(timeoutSeconds: number): ServerOptions {
  const requestTimeout = timeoutSeconds * 1000;
  return {
    requestTimeout,
    headersTimeout: requestTimeout === 0 ? 60_000 : Math.min(60_000, requestTimeout),
    connectionsCheckingInterval: requestTimeout === 0 ? 30_000 : Math.min(30_000, Math.max(1_000, requestTimeout / 10)),
  };
}

/** A client's call, authenticated and counted as foreground work: the API under /v1, and MCP at /mcp (src/mcp). */
const isClientCall = (url: string): boolean => url.startsWith('/v1/') || /^\/mcp(\?|$)/.test(url);

export async function buildHttpServer(services: CoreServices, logger: FastifyBaseLogger): Promise<App> {
  const receiving = receivingLimits(services.config.requestTimeoutSeconds);
  const app = Fastify({
    loggerInstance: logger,
    bodyLimit: services.config.bodyLimitBytes,
    // The same value fastify sets on the server afterwards (see receivingLimits).
    requestTimeout: receiving.requestTimeout,
    http: receiving,
    clientErrorHandler: answerConnectionError,
    return503OnClosing: true,
    forceCloseConnections: 'idle',
    ajv: { customOptions: { strict: false } },
    genReqId: requestId,
    // The longest id a route takes (IdParams): fastify's default of 100 made a 128-character workspace unreachable.
    routerOptions: { maxParamLength: 256 },
    // Malformed URLs and over-long path parameters get the one error body too.
    frameworkErrors: handleError,
  }).withTypeProvider<TypeBoxTypeProvider>();
  // First, so that everything after runs in the request's context (its id in every log line, its span).
  observeRequests(app, services.observability);
  endConnectionsOnClose(app);

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  refuseEncodedBodies(app);
  acceptJsonBodies(app, services.config.jsonMaxDepth);
  app.setErrorHandler(handleError);
  abandonCreatedWorkspaces(app, services);
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0]!;
    // A path served with other methods is there: 405 with what it takes (RFC 9110), not a 404 that reads as "no
    // such memory" to a client that sent PATCH where the API takes PUT.
    const allowed = ANSWERED_METHODS.filter((method) => app.findRoute({ method, url: path }) !== null);
    if (allowed.length === 0)
      return handleError(new AppError('not_found', `no route ${request.method} ${path}`), request, reply);
    reply.header('allow', allowed.join(', '));
    return handleError(
      new AppError('method_not_allowed', `${request.method} is not taken by ${path}; it takes ${allowed.join(', ')}`),
      request,
      reply,
    );
  });

  await app.register(cors, {
    origin: true,
    // An OPTIONS request without the preflight's headers is answered as one (204) rather than with the plugin's
    // text/plain 400: it asks nothing the server refuses.
    strictPreflight: false,
    allowedHeaders: [
      'Authorization',
      'Content-Type',
      'X-API-Key',
      'X-Request-ID',
      'X-Session-ID',
      'X-Workspace-ID',
      'traceparent',
      'Mcp-Protocol-Version',
      'Mcp-Session-Id',
      'Last-Event-ID',
    ],
    exposedHeaders: ['Retry-After', 'X-Request-ID', 'Mcp-Session-Id'],
  });
  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: { title: 'memd', description: 'Long-term memory service for AI agents', version: API_VERSION },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
      security: [{ bearer: [] }],
    },
    transformObject: (documents) =>
      'openapiObject' in documents ? finishOpenApiDocument(documents.openapiObject) : documents.swaggerObject,
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());

  // An acknowledged write is a durable write: every mutating request waits for the durability barrier.
  app.addHook('onSend', async (request) => {
    if (request.method !== 'GET' && request.method !== 'HEAD' && request.method !== 'OPTIONS')
      await services.syncWrites();
  });

  // Background tasks start in the gaps between client requests (health probes do not count).
  app.addHook('onRequest', async (request, reply) => {
    if (!isClientCall(request.url)) return;
    services.foreground.begin();
    reply.raw.once('close', () => services.foreground.end());
  });

  // No id, name or filter holds NUL, and PostgreSQL text cannot: refused before a route reads the URL.
  app.addHook('onRequest', async (request) => {
    if (/%00/.test(request.url)) throw new AppError('bad_request', 'the URL holds a NUL character (%00)');
  });

  app.decorateRequest('principal', null as never);
  app.addHook('onRequest', async (request) => {
    if (isClientCall(request.url)) request.principal = await services.apiKeys.authenticate(presentedKey(request));
  });

  healthRoutes(app, services);
  metricsRoutes(app, services);
  await uiRoutes(app);
  await app.register(
    async (v1) => {
      // After authentication (a parent hook), so that a key is one client wherever it calls from.
      await limitRequestRate(v1, services.config.rateLimit.perMinute);
      v1.addHook('onRoute', acceptWorkspaceQuery);
      for (const routes of V1_ROUTES) routes(v1, services);
    },
    { prefix: '/v1' },
  );
  return app;
}

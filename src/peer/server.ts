import { createHash, timingSafeEqual } from 'node:crypto';
import swagger from '@fastify/swagger';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, {
  type FastifyBaseLogger,
  type FastifyInstance,
  type RawReplyDefaultExpression,
  type RawRequestDefaultExpression,
  type RawServerDefault,
} from 'fastify';
import pino from 'pino';
import type { PeerConfig } from './config.js';
import { AppError } from '../errors.js';
import { validatorCompiler } from '../http/validation.js';
import { createEmbeddingProvider } from '../providers/embedding/index.js';
import type { EmbeddingProvider } from '../providers/embedding/types.js';
import { embeddingRoutes } from './embeddings.js';
import { Hosted } from './hosted.js';
import { peerErrorHandler } from './errors.js';
import { llmRoutes } from './llm-proxy.js';
import { ProviderLoad } from './load.js';
import { ocrRoutes } from './ocr.js';
import { transcriptionRoutes } from './transcription-proxy.js';
import { createOcrProvider, type OcrProvider } from '../providers/ocr/index.js';
import { API_VERSION } from '../version.js';

export type PeerApp = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

export interface PeerOptions {
  /** Replaces the configured embedding providers (tests). */
  embedders?: EmbeddingProvider[];
  /** Replaces the configured OCR engine (tests); null turns OCR off. */
  ocr?: OcrProvider | null;
  logLevel?: string;
}

export interface Peer {
  http: PeerApp;
  /** Listens on the configured host and port (or `port`), then loads the models in the background. */
  listen(port?: number): Promise<string>;
  /** Resolves once every model has loaded or failed to (see /health/ready). */
  ready(): Promise<void>;
  close(): Promise<void>;
}

const digest = (secret: string) => createHash('sha256').update(secret).digest();

/**
 * The embedding peer: a stateless HTTP process that serves model work for memd nodes — OpenAI-compatible
 * embeddings from the configured providers, OCR of images, and, when enabled, language-model profiles (chat,
 * completions, audio transcription) forwarded to their upstreams — with health, readiness and a per-provider load
 * snapshot.
 */
export async function createPeer(config: PeerConfig, options: PeerOptions = {}): Promise<Peer> {
  const logger: FastifyBaseLogger = pino({
    level: options.logLevel ?? config.logLevel,
    base: { service: 'memd-peer' },
  });
  const embedders = (options.embedders ?? config.embedding.map(createEmbeddingProvider)).map(
    (provider) =>
      new Hosted(provider, new ProviderLoad('embedding', provider.name, provider.model, config.concurrency)),
  );
  const ocrProvider = options.ocr !== undefined ? options.ocr : createOcrProvider(config.ocr);
  const ocr =
    ocrProvider &&
    new Hosted(ocrProvider, new ProviderLoad('ocr', ocrProvider.name, ocrProvider.model, config.concurrency));
  const llmLoads = new Map(
    config.llm.profiles.map((p) => [p.name, new ProviderLoad('llm', p.name, p.model, config.concurrency)]),
  );

  const http: PeerApp = Fastify({
    loggerInstance: logger,
    bodyLimit: config.bodyLimitBytes,
    requestTimeout: 0,
    return503OnClosing: true,
    forceCloseConnections: 'idle',
  }).withTypeProvider<TypeBoxTypeProvider>();
  http.setValidatorCompiler(validatorCompiler);
  http.setErrorHandler(peerErrorHandler);
  http.setNotFoundHandler((request, reply) =>
    peerErrorHandler(
      new AppError('not_found', `no route ${request.method} ${request.url.split('?')[0]}`),
      request,
      reply,
    ),
  );

  if (config.apiKey) {
    const expected = digest(config.apiKey);
    http.addHook('onRequest', async (request) => {
      if (!request.url.startsWith('/v1/')) return;
      const presented = /^Bearer\s+(.+)$/i.exec(request.headers.authorization ?? '')?.[1]?.trim();
      if (!presented || !timingSafeEqual(digest(presented), expected))
        throw new AppError('unauthorized', 'a valid API key is required (Authorization: Bearer <MEMD_PEER_API_KEY>)');
    });
  }

  // The peer's API as OpenAPI 3 (`GET /openapi.json`), built from the route schemas: registered before the routes.
  await http.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'memd embedding peer',
        description: 'Embeddings, OCR, and language-model and transcription forwarding for memd nodes',
        version: API_VERSION,
      },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
      ...(config.apiKey ? { security: [{ bearer: [] }] } : {}),
    },
  });
  http.get('/openapi.json', { schema: { hide: true } }, async () => http.swagger());

  http.get('/health', async () => ({ status: 'healthy' as const }));
  http.get('/health/ready', async (_request, reply) => {
    const ready = embedders.every((e) => e.state === 'ready') && (!ocr || ocr.state === 'ready');
    return reply.status(ready ? 200 : 503).send({
      status: ready ? 'ready' : 'not_ready',
      embedding: embedders.map((e) => ({
        name: e.provider.name,
        model: e.provider.model,
        dimensions: e.provider.dimensions,
        state: e.state,
        error: e.error,
      })),
      ocr: ocr ? { model: ocr.provider.model, state: ocr.state, error: ocr.error } : null,
      llm: { enabled: config.llm.enabled, profiles: config.llm.profiles.map((p) => p.name) },
    });
  });
  http.get('/health/load', async () => ({
    providers: [...embedders.map((e) => e.load), ...(ocr ? [ocr.load] : []), ...llmLoads.values()].map((load) =>
      load.snapshot(),
    ),
  }));
  embeddingRoutes(http, embedders);
  ocrRoutes(http, ocr);
  llmRoutes(http, config.llm, llmLoads);
  transcriptionRoutes(http, config.llm, llmLoads, config.bodyLimitBytes);

  let loading: Promise<void> = Promise.resolve();
  return {
    http,
    async listen(port = config.port) {
      const url = await http.listen({ host: config.host, port });
      loading = Promise.all([...embedders.map((e) => e.init()), ocr?.init()]).then(() => undefined);
      return url;
    },
    ready: () => loading,
    async close() {
      await http.close();
      await loading;
      await Promise.all([...embedders.map((e) => e.provider.close()), ocr?.provider.close()]);
    },
  };
}

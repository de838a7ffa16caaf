import { Type } from 'typebox';
import type { CoreServices } from '../../services.js';
import { API_VERSION, type App } from '../server.js';

const Readiness = Type.Object({
  status: Type.Union([Type.Literal('ready'), Type.Literal('not_ready')]),
  services: Type.Object({
    storage: Type.String(),
    embedder: Type.String(),
    search_index: Type.String(),
    llm: Type.String(),
    tasks: Type.Object(
      {
        pending: Type.Integer({
          description:
            'due now: the backlog of background enrichment (facts, links, contradiction checks) and other work',
        }),
        scheduled: Type.Integer({ description: 'waiting for their time: recurring work, retries' }),
        running: Type.Integer(),
        failed: Type.Integer(),
        finished_last_minute: Type.Integer({
          description:
            "tasks this server finished in the last minute: the backlog's drain rate here (other API nodes drain it too)",
        }),
        oldest_pending_seconds: Type.Integer({
          description: 'how long the longest-waiting due task has waited (0 without a backlog)',
        }),
        backlog: Type.Record(
          Type.String(),
          Type.Object({
            pending: Type.Integer(),
            oldest_pending_seconds: Type.Integer(),
          }),
          {
            description:
              'due tasks by kind (`memory.enrich`: memories whose facts, links and contradiction checks are still to come), and how long the longest-waiting of each has waited',
          },
        ),
      },
      { description: 'the background queue' },
    ),
  }),
});

/** Liveness and readiness, outside /v1 and without authentication, for load balancers and orchestrators. */
export function healthRoutes(app: App, services: CoreServices): void {
  app.get('/', { schema: { hide: true } }, async () => ({
    name: 'memd',
    version: API_VERSION,
    description: 'Long-term memory service for AI agents',
    docs: '/docs',
  }));

  app.get(
    '/health',
    {
      schema: {
        tags: ['health'],
        summary: 'The process is up',
        response: { 200: Type.Object({ status: Type.Literal('healthy') }) },
      },
    },
    async () => ({
      status: 'healthy' as const,
    }),
  );

  app.get(
    '/health/ready',
    {
      schema: {
        tags: ['health'],
        summary: 'Storage, embedder and search indexes are ready (503 until then)',
        response: { 200: Readiness, 503: Readiness },
      },
    },
    async (_request, reply) => {
      const { ready, ...parts } = await services.health.readiness();
      return reply
        .status(ready ? 200 : 503)
        .send({ status: ready ? ('ready' as const) : ('not_ready' as const), services: parts });
    },
  );
}

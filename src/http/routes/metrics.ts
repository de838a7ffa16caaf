import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { forbidden } from '../../errors.js';
import type { CoreServices } from '../../services.js';
import { presentedKey } from '../request-context.js';
import type { App } from '../server.js';

const digest = (secret: string): Buffer => createHash('sha256').update(secret, 'utf8').digest();

/**
 * Who may scrape. Without MEMD_ADMIN_KEY (local mode) anyone, like the rest of the API. With it, the admin key or
 * MEMD_METRICS_KEY, a credential that reads metrics and nothing else, so that a Prometheus server never holds the
 * admin key. Workspace API keys may not: the metrics describe the whole node, every tenant's traffic included.
 */
async function authorizeScrape(services: CoreServices, request: FastifyRequest): Promise<void> {
  if (!services.apiKeys.authRequired) return;
  const presented = presentedKey(request);
  const scrapeKey = services.config.metrics.key;
  if (presented && scrapeKey && timingSafeEqual(digest(presented), digest(scrapeKey))) return;
  const principal = await services.apiKeys.authenticate(presented);
  if (principal.kind === 'key') throw forbidden('/metrics needs the admin key or MEMD_METRICS_KEY');
}

/** Prometheus metrics, outside /v1 (README.md lists them); off with MEMD_METRICS_ENABLED=false. */
export function metricsRoutes(app: App, services: CoreServices): void {
  if (!services.config.metrics.enabled) return;
  const { metrics } = services.observability;
  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    await authorizeScrape(services, request);
    return reply.type(metrics.contentType).send(await metrics.scrape());
  });
}

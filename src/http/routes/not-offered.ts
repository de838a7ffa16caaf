import { AppError } from '../../errors.js';
import type { App } from '../server.js';

/**
 * Routes client libraries of the reference service (NOTES.md, "Values from the reference service") call that memd
 * does not offer: a 501 that says so, rather than a 404 a client would read as "that record does not exist". Hidden
 * from the OpenAPI document.
 */
export function notOfferedRoutes(app: App): void {
  for (const url of ['/datasets', '/datasets/*']) {
    app.all(url, { schema: { hide: true } }, async () => {
      throw new AppError(
        'not_implemented',
        'datasets are not offered by memd: store records as memories (POST /v1/memories, /v1/memories/batch) or upload them as documents (POST /v1/documents)',
      );
    });
  }
}

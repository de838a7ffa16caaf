import { AppError } from '../errors.js';
import type { App } from './server.js';

/**
 * Bodies are read as sent: a compressed one would be parsed as if it were plain (a JSON body under `Content-Encoding:
 * gzip` was stored as written, a gzipped one refused as invalid JSON). So a request that declares any coding but
 * `identity` is refused, 415, before its body is read (RFC 9110 §8.4.1 names that status for a coding not accepted).
 */
export function refuseEncodedBodies(app: App): void {
  app.addHook('onRequest', async (request) => {
    const coding = request.headers['content-encoding']?.trim().toLowerCase();
    if (coding && coding !== 'identity')
      throw new AppError(
        'unsupported_media_type',
        `Content-Encoding '${coding}' is not accepted: send the body uncompressed`,
      );
  });
}

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyReply } from 'fastify';
import { AppError } from '../errors.js';
import { PACKAGE_ROOT } from '../package-root.js';
import type { App } from './server.js';

/**
 * The explorer (ui/, built by `npm run build` into dist/ui) at /ui: its files, and index.html for every other
 * path under /ui, where the page routes by itself. The page calls the public API like any client; serving it
 * needs no key (it holds no data), its calls do.
 */
export const UI_PREFIX = '/ui';

export const UI_BUILD_DIR = join(PACKAGE_ROOT, 'dist', 'ui');

/**
 * The page may reach this server only: no CDN, fonts or scripts from elsewhere (it works offline). The graph's
 * layout runs in a worker made from a blob.
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "worker-src 'self' blob:",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** File names under assets/ carry a hash of their content: cached for good. The page itself is checked each time. */
const ASSETS = `${UI_PREFIX}/assets/`;

const sendPage = (reply: FastifyReply) =>
  reply.header('content-security-policy', CONTENT_SECURITY_POLICY).sendFile('index.html');

export async function uiRoutes(app: App, buildDir = UI_BUILD_DIR): Promise<void> {
  const built = existsSync(join(buildDir, 'index.html'));
  await app.register(async (scope) => {
    scope.get(UI_PREFIX, { schema: { hide: true } }, async (_request, reply) => reply.redirect(`${UI_PREFIX}/`));
    if (!built) {
      // `npm run dev` (tsx) serves the API without building the page.
      scope.get(`${UI_PREFIX}/*`, { schema: { hide: true } }, async () => {
        throw new AppError(
          'not_found',
          'the explorer is not built here: run `npm run build` (or `npm start`, which builds it)',
        );
      });
      return;
    }
    await scope.register(fastifyStatic, {
      root: buildDir,
      prefix: `${UI_PREFIX}/`,
      wildcard: false,
      index: false,
      dotfiles: 'ignore',
      // The page itself goes out with its security policy, below.
      globIgnore: ['index.html'],
      cacheControl: false,
      setHeaders: (reply, path) => {
        reply.header(
          'cache-control',
          path.startsWith(join(buildDir, 'assets')) ? 'public, max-age=31536000, immutable' : 'no-cache',
        );
      },
    });
    // Client-side routes (/ui/w/<workspace>/memories/…) are the page; a missing asset is a 404, not the page.
    scope.get(`${UI_PREFIX}/*`, { schema: { hide: true } }, async (request, reply) => {
      if (request.url.startsWith(ASSETS)) throw new AppError('not_found', `no file ${request.url.split('?')[0]}`);
      return sendPage(reply);
    });
  });
}

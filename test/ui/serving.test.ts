import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../src/http/server.js';
import { uiRoutes } from '../../src/http/ui.js';
import { startServer, type TestServer } from '../support/server.js';
import { ensureUiBuilt } from '../support/ui-build.js';

let server: TestServer;

beforeAll(async () => {
  await ensureUiBuilt();
  server = await startServer({ env: { MEMD_ADMIN_KEY: 'serving-admin-key-0123456789' } });
}, 180_000);
afterAll(() => server?.stop());

const get = (path: string) => fetch(`${server.url}${path}`, { redirect: 'manual' });

describe('GET /ui', () => {
  it('serves the page without a key (it holds no data), under a policy that lets it reach this server only', async () => {
    expect((await get('/ui')).headers.get('location')).toBe('/ui/');
    const page = await get('/ui/');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(page.headers.get('cache-control')).toBe('no-cache');
    expect(page.headers.get('content-security-policy')).toContain("connect-src 'self'");
    expect(await page.text()).toContain('<div id="app">');
    expect((await get('/v1/workspaces')).status).toBe(401);
  });

  it('answers the page for the routes the page handles itself, and 404 for a missing asset', async () => {
    for (const path of ['/ui/workspaces', '/ui/w/_default/memories/mem_1', '/ui/index.html']) {
      const answer = await get(path);
      expect(answer.status, path).toBe(200);
      expect(await answer.text(), path).toContain('<div id="app">');
    }
    const missing = await get('/ui/assets/nope-123.js');
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { code: string }).code).toBe('not_found');
  });

  it('serves the built scripts with a year of caching (their names carry a hash of their content)', async () => {
    const html = await (await get('/ui/')).text();
    const script = /src="(\/ui\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    expect(script).toBeDefined();
    const asset = await get(script!);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-type')).toContain('javascript');
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    // Read to the end: a body left unread holds its connection open, and the server's stop waits for it.
    expect((await asset.text()).length).toBeGreaterThan(1000);
  });

  it('says how to build the page where it is not built', async () => {
    const app = Fastify();
    await uiRoutes(app as unknown as App, '/nonexistent/memd-ui');
    const answer = await app.inject({ method: 'GET', url: '/ui/' });
    expect(answer.statusCode).toBe(404);
    expect(answer.json().message).toContain('npm run build');
    await app.close();
  });
});

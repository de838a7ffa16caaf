import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/**
 * The explorer, built into dist/ui and served by memd at /ui (src/http/ui.ts). JSX is compiled by Vite's own
 * transformer for Preact: no framework plugin. The client package is read from its sources, so the explorer builds
 * and type-checks without building the client first.
 */
export default defineConfig({
  root: here('.'),
  base: '/ui/',
  publicDir: false,
  resolve: { alias: { 'memd-client': here('../packages/client/src/index.ts') } },
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: here('../dist/ui'),
    emptyOutDir: true,
    target: 'es2022',
    // The graph renderer (sigma, graphology, ForceAtlas2: ~450 kB, ~110 kB gzipped) is a chunk of its own, loaded
    // when a graph is first shown; the rest of the page is ~110 kB.
    chunkSizeWarningLimit: 500,
  },
  // `npm run dev:ui`: the page with hot reload, the API from a memd started apart (npm run dev).
  server: { proxy: { '/v1': 'http://127.0.0.1:61001', '/health': 'http://127.0.0.1:61001' } },
});

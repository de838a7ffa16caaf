#!/usr/bin/env node
/**
 * The `memd` command. In a checkout with its development dependencies (after `npm install`) it runs the TypeScript
 * sources through tsx, as `npm test` and `npm run dev` do: no build step, never a stale build. Without tsx (an
 * install with --omit=dev, or a packed install, which holds no sources) it runs what `npm run build` (or `npm start`)
 * wrote to dist/.
 */
import { existsSync } from 'node:fs';

const source = new URL('../src/cli/main.ts', import.meta.url);
// A packed install ships dist/ only: tsx may be there (hoisted by another package) while the sources are not.
const tsx = existsSync(source) ? await import('tsx/esm/api').catch(() => null) : null;
if (tsx) {
  tsx.register();
  await import(source.href);
} else {
  const built = new URL('../dist/src/cli/main.js', import.meta.url);
  if (!existsSync(built)) {
    process.stderr.write('memd: no build to run: `npm run build` first (or install the development dependencies)\n');
    process.exit(1);
  }
  await import(built.href);
}

#!/usr/bin/env node
/**
 * The `memd` command. In a checkout with its development dependencies (after `npm install`) it runs the TypeScript
 * sources through tsx, as `npm test` and `npm run dev` do: no build step, never a stale build. Without tsx (an
 * install with --omit=dev) it runs what `npm run build` (or `npm start`) wrote to dist/.
 */
import { existsSync } from 'node:fs';

const tsx = await import('tsx/esm/api').catch(() => null);
if (tsx) {
  tsx.register();
  await import('../src/cli/main.ts');
} else {
  const built = new URL('../dist/src/cli/main.js', import.meta.url);
  if (!existsSync(built)) {
    process.stderr.write('memd: no build to run: `npm run build` first (or install the development dependencies)\n');
    process.exit(1);
  }
  await import(built.href);
}

import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { UI_BUILD_DIR } from '../../src/http/ui.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
/** What the page is built from: its sources and the client package it calls the API through. */
const SOURCES = ['ui', 'packages/client/src'].map((dir) => join(root, dir));
const LOCK = join(root, 'dist', '.ui-build.lock');

function newest(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...readdirSync(path).map((name) => newest(join(path, name))));
}

const stale = () => {
  const page = join(UI_BUILD_DIR, 'index.html');
  return !existsSync(page) || Math.max(...SOURCES.map(newest)) > statSync(page).mtimeMs;
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Builds the explorer (`npm run build:ui`) when its output is missing or older than its sources. Test files run in
 * parallel processes: one builds while the others wait for it (a lock directory, created atomically).
 */
export async function ensureUiBuilt(): Promise<void> {
  mkdirSync(join(root, 'dist'), { recursive: true });
  for (;;) {
    if (!stale()) return;
    try {
      mkdirSync(LOCK);
    } catch {
      // Another test file is building; a lock older than five minutes was left by a killed run.
      const lock = statSync(LOCK, { throwIfNoEntry: false });
      if (lock && Date.now() - lock.mtimeMs > 300_000) rmSync(LOCK, { recursive: true, force: true });
      await sleep(500);
      continue;
    }
    try {
      if (stale())
        execFileSync(
          process.execPath,
          [
            join(root, 'node_modules', 'vite', 'bin', 'vite.js'),
            'build',
            '--config',
            join(root, 'ui', 'vite.config.ts'),
            '--logLevel',
            'warn',
          ],
          { cwd: root, stdio: 'pipe' },
        );
      return;
    } finally {
      rmSync(LOCK, { recursive: true, force: true });
    }
  }
}

import { once } from 'node:events';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { describe, expect, test } from 'vitest';
import { siblingModule, workerEntry } from '../../src/worker-entry.js';

const fixture = siblingModule(new URL('./fixture/any.ts', import.meta.url).href, 'echo-worker');

describe('worker scripts run from TypeScript sources', () => {
  test('start as a JavaScript bundle of their own modules, with no loader and no flags of the process', async () => {
    const { filename, execArgv } = workerEntry(fixture);
    expect(filename).toMatch(/\/node_modules\/\.cache\/memd-workers\/echo-worker-[0-9a-f]{16}\.mjs$/);
    expect(execArgv).toEqual([]);
    const code = readFileSync(filename, 'utf8');
    expect(code).toContain('hello, ');
    expect(code).not.toMatch(/from ["']\.\/greeting/);

    const worker = new Worker(filename, { workerData: { name: 'worker' }, execArgv });
    const [message] = await once(worker, 'message');
    await worker.terminate();
    expect(message).toEqual({ greeting: 'hello, worker', execArgv: [] });
  });

  test('a script is bundled once a process', () => {
    const { filename } = workerEntry(fixture);
    const code = readFileSync(filename);
    // Built again, the bundle would be written again: asked a second time, the process answers from what it built.
    rmSync(filename);
    try {
      expect(workerEntry(fixture).filename).toBe(filename);
      expect(existsSync(filename)).toBe(false);
    } finally {
      writeFileSync(filename, code);
    }
  });

  test('built JavaScript runs as it is', () => {
    const built = new URL('file:///srv/memd/dist/src/storage/sqlite/reader-worker.js');
    expect(workerEntry(built)).toEqual({
      filename: '/srv/memd/dist/src/storage/sqlite/reader-worker.js',
      execArgv: [],
    });
  });
});

import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { describe, expect, test } from 'vitest';
import { runnableScript, siblingModule, workerEntry } from '../../src/worker-entry.js';

const fixture = siblingModule(new URL('./fixture/any.ts', import.meta.url).href, 'echo-worker');

describe('worker scripts run from TypeScript sources', () => {
  test('start as a JavaScript bundle of their own modules, with no loader', async () => {
    const script = runnableScript(fixture);
    expect(script.pathname).toMatch(/\/node_modules\/\.cache\/memd-workers\/echo-worker-[0-9a-f]{16}\.mjs$/);
    const code = readFileSync(script, 'utf8');
    expect(code).toContain('hello, ');
    expect(code).not.toMatch(/from ["']\.\/greeting/);

    const worker = new Worker(script, { workerData: { name: 'worker' }, execArgv: [] });
    const [message] = await once(worker, 'message');
    await worker.terminate();
    expect(message).toEqual({ greeting: 'hello, worker', execArgv: [] });
  });

  test('a script is bundled once a process, and a pool gets the same file with no flags', () => {
    const first = runnableScript(fixture);
    expect(runnableScript(fixture).href).toBe(first.href);
    expect(workerEntry(fixture)).toEqual({ filename: fileURLToPath(first), execArgv: [] });
  });

  test('built JavaScript runs as it is', () => {
    const built = new URL('file:///srv/memd/dist/src/storage/sqlite/reader-worker.js');
    expect(runnableScript(built)).toBe(built);
    expect(workerEntry(built)).toEqual({
      filename: '/srv/memd/dist/src/storage/sqlite/reader-worker.js',
      execArgv: [],
    });
  });
});

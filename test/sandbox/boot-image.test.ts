import { afterAll, expect, test } from 'vitest';
import { startSandboxWorker } from '../../src/sandbox/boot-image.js';
import type { OperationRequest } from '../../src/sandbox/protocol.js';
import type { SandboxWorker } from '../../src/sandbox/sandbox-worker.js';
import { MiB } from './support.js';

// A memory limit of this file's own: boot images are made once per process and limit.
const limits = { memoryLimitBytes: 200 * MiB, interruptGraceMs: 500, startupTimeoutMs: 60_000 };
const warnings: string[] = [];
const logger = { warn: (_details: Record<string, unknown>, message: string) => void warnings.push(message) };
const started: SandboxWorker[] = [];

afterAll(async () => {
  await Promise.all(started.map((worker) => worker.terminate()));
});

async function start(): Promise<SandboxWorker> {
  const worker = await startSandboxWorker(limits, logger);
  started.push(worker);
  return worker;
}

async function run(worker: SandboxWorker, code: string): Promise<{ result: string | null; error: string | null }> {
  const request: OperationRequest = {
    op: 'execute',
    code,
    resultVar: null,
    returnResult: true,
    maxReturnChars: 10_000,
    maxOutputChars: 10_000,
  };
  return (await worker.run(request, 15_000)).value as { result: string | null; error: string | null };
}

test('the first sandbox boots Python, later ones start from the boot image, each fenced and with its own variables', async () => {
  const first = await start();
  const second = await start();
  const third = await start();
  expect([first.startedFrom, second.startedFrom, third.startedFrom]).toEqual(['python', 'boot_image', 'boot_image']);
  expect(warnings).toEqual([]);

  expect((await run(first, "secret = 'first only'\nsecret")).result).toBe('first only');
  for (const worker of [second, third]) {
    expect((await run(worker, 'secret')).error).toMatch(/NameError/);
    expect((await run(worker, 'import js')).error).toMatch(/module 'js' is not available/);
    expect((await run(worker, 'import gc\ngc.get_objects()')).error).toMatch(/has no attribute 'get_objects'/);
    expect((await run(worker, 'import json, statistics\njson.dumps(statistics.mean([1, 2, 6]))')).result).toBe('3');
  }
  // Random bytes and the random module work, and differ from one sandbox to the next.
  const draw = async (worker: SandboxWorker) =>
    (await run(worker, 'import os, random\n(os.urandom(8).hex(), random.random())')).result;
  const draws = [await draw(second), await draw(third)];
  for (const drawn of draws)
    expect(JSON.parse(drawn!)).toEqual([expect.stringMatching(/^[0-9a-f]{16}$/), expect.any(Number)]);
  expect(draws[0]).not.toBe(draws[1]);
  await run(second, 'shared = 2');
  expect((await run(third, 'shared')).error).toMatch(/NameError/);
});

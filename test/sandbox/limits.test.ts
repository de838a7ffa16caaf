import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { SandboxManager } from '../../src/sandbox/index.js';
import { MiB, createManager, echoHost } from './support.js';

// Long enough for the memory tests to fill 128 MiB on a busy two-core machine.
const TIMEOUT_MS = 2_000;
const MEMORY_LIMIT = 128 * MiB;
let manager: SandboxManager;
/** Host calls that never answer, to show a timeout also ends a wait on the host. */
const stalledHost = { llmQuery: () => new Promise<string>(() => {}), recall: async () => [] };

/** A warmed-up manager with the memory limit and the time limit given. */
async function startManager(executionTimeoutMs: number): Promise<SandboxManager> {
  const { manager } = createManager({
    config: { executionTimeoutMs, memoryLimitBytes: MEMORY_LIMIT },
    hostFor: (sessionId) => (sessionId === 'stalled' ? stalledHost : echoHost(sessionId)),
  });
  await manager.warmUp();
  return manager;
}

beforeAll(async () => {
  manager = await startManager(TIMEOUT_MS);
});
afterAll(() => manager.close());

describe('time limit', () => {
  test('an infinite loop is interrupted and the sandbox keeps its state', async () => {
    await manager.execute('loop', { code: "kept = 'still here'" });
    const run = await manager.execute('loop', { code: "print('started')\nwhile True:\n    pass" });
    expect(run.output).toBe('started\n');
    expect(run.error).toMatch(
      new RegExp(`^TimeoutError: execution exceeded the ${TIMEOUT_MS} ms limit and was interrupted\n`),
    );
    expect(run.error).toMatch(/KeyboardInterrupt$/);
    expect((await manager.execute('loop', { code: 'kept' })).result).toBe('still here');
  });

  test('time.sleep is interruptible', async () => {
    const run = await manager.execute('loop', { code: 'import time\ntime.sleep(60)' });
    expect(run.error).toMatch(/was interrupted[\s\S]*KeyboardInterrupt$/);
    expect((await manager.execute('loop', { code: 'kept' })).result).toBe('still here');
  });

  test('a timeout also ends a wait on a host call', async () => {
    await manager.execute('stalled', { code: 'kept = 1' });
    const run = await manager.execute('stalled', { code: "llm_query('never answered')" });
    expect(run.error).toMatch(/was interrupted[\s\S]*KeyboardInterrupt$/);
    expect((await manager.execute('stalled', { code: 'kept + 1' })).result).toBe('2');
  });

  test('code that ignores the interrupt is terminated and restored from the last checkpoint', async () => {
    await manager.execute('stubborn', { code: "saved = 'from the checkpoint'" });
    await manager.checkpoint('stubborn');
    await manager.execute('stubborn', { code: "unsaved = 'lost'" });
    const run = await manager.execute('stubborn', {
      code: 'import signal\nsignal.signal(signal.SIGINT, signal.SIG_IGN)\nwhile True:\n    pass',
    });
    expect(run.error).toMatch(
      new RegExp(
        `^TimeoutError: execution exceeded the ${TIMEOUT_MS} ms limit and could not be interrupted; the sandbox was restarted from its checkpoint of .+ \\(variables: saved\\)$`,
      ),
    );
    expect((await manager.execute('stubborn', { code: 'saved' })).result).toBe('from the checkpoint');
    expect((await manager.execute('stubborn', { code: 'unsaved' })).error).toMatch(/NameError/);
  });

  test('a run interrupted and then out of memory is told both limits', async () => {
    const run = await manager.execute('both', {
      code: 'try:\n    while True:\n        pass\nexcept KeyboardInterrupt:\n    b = bytearray(200 * 2**20)',
    });
    expect(run.error).toMatch(
      new RegExp(`^TimeoutError: execution exceeded the ${TIMEOUT_MS} ms limit and was interrupted\n`),
    );
    expect(run.error).toMatch(
      new RegExp(`MemoryError[\\s\\S]*\\(the sandbox memory limit is ${MEMORY_LIMIT} bytes\\)$`),
    );
    expect((await manager.execute('both', { code: '1 + 1' })).result).toBe('2');
  });

  test('a loop inside C code (no interrupt checks) is terminated too', async () => {
    const run = await manager.execute('c-loop', { code: 'sum(range(10**15))' });
    expect(run.error).toMatch(/could not be interrupted; the sandbox was restarted empty \(there was no checkpoint\)$/);
    expect((await manager.execute('c-loop', { code: '1 + 1' })).result).toBe('2');
  });
});

describe('memory limit', () => {
  // Filling 128 MiB took more than the 2 s above on a loaded two-core machine (a CI run): these tests are about the
  // memory limit, so they run where the time limit is far.
  let manager: SandboxManager;
  beforeAll(async () => {
    manager = await startManager(30_000);
  });
  afterAll(() => manager.close());

  const bombs: [string, string, RegExp][] = [
    ['a huge string', "x = 'a' * 10**10", /(MemoryError|OverflowError)/],
    ['a huge list', 'l = [0] * 10**9', /MemoryError/],
    [
      'a list grown in a loop',
      "grown = []\nwhile True:\n    grown.append(' ' * 10_000 + str(len(grown)))",
      /MemoryError/,
    ],
    ['a bytearray past the limit', 'b = bytearray(200 * 2**20)', /MemoryError/],
  ];

  test.each(bombs)('%s is stopped with an error and the sandbox carries on', async (_name, code, expected) => {
    await manager.execute('bombs', { code: "kept = 'still here'" });
    const run = await manager.execute('bombs', { code });
    expect(run.error).toMatch(expected);
    if (/MemoryError/.test(run.error!))
      expect(run.error).toContain(`(the sandbox memory limit is ${MEMORY_LIMIT} bytes)`);
    expect((await manager.execute('bombs', { code: "globals().pop('grown', None)\nkept" })).result).toBe('still here');
  });

  test('the limit holds: the interpreter heap never grows past it', async () => {
    // This process has run other test files before (vitest.config.ts, isolate): what counts is what this fill adds.
    const before = process.memoryUsage().rss;
    await manager.execute('heap', {
      code: 'chunks = []\ntry:\n    while True:\n        chunks.append(bytearray(4 * 2**20))\nexcept MemoryError:\n    pass\nheld = len(chunks) * 4',
    });
    const held = Number((await manager.execute('heap', { code: 'held' })).result);
    expect(held).toBeGreaterThan(32);
    expect(held).toBeLessThan(128);
    expect(process.memoryUsage().rss - before).toBeLessThan(1024 * MiB);
  });

  test('files in the sandbox count against the same budget', async () => {
    const run = await manager.execute('files', {
      code: "chunk = b'x' * (16 * 2**20)\nfor i in range(100):\n    with open(f'/tmp/f{i}', 'wb') as f:\n        f.write(chunk)",
    });
    expect(run.error).toMatch(/OSError: \[Errno 51\] No space left on device|MemoryError/);
    const freed = await manager.execute('files', {
      code: "import os\nfor name in os.listdir('/tmp'):\n    os.remove('/tmp/' + name)\ndel chunk\nwith open('/tmp/small', 'w') as f:\n    f.write('ok')\nopen('/tmp/small').read()",
    });
    expect(freed).toMatchObject({ error: null, result: 'ok' });
  });

  test('a crash of the interpreter (C stack overflow) ends only that sandbox, which is restored', async () => {
    await manager.execute('crash', { code: "saved = 'from the checkpoint'" });
    await manager.checkpoint('crash');
    const run = await manager.execute('crash', {
      code: 'import json\nnested = []\nfor _ in range(200_000):\n    nested = [nested]\njson.dumps(nested)',
    });
    expect(run.error).toMatch(
      /^SandboxError: the sandbox stopped \(.+\); the sandbox was restarted from its checkpoint of .+ \(variables: saved\)$/s,
    );
    expect((await manager.execute('crash', { code: 'saved' })).result).toBe('from the checkpoint');
  });
});

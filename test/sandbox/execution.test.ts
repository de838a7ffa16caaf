import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { AppError } from '../../src/errors.js';
import type { SandboxManager } from '../../src/sandbox/index.js';
import { createManager } from './support.js';

let manager: SandboxManager;

beforeAll(async () => {
  ({ manager } = createManager({ config: { maxOutputChars: 1_000 } }));
  await manager.warmUp();
});
afterAll(() => manager.close());

describe('execute', () => {
  test('state persists between calls', async () => {
    expect(await manager.execute('state', { code: 'counter = 41' })).toEqual({
      output: '',
      result: null,
      error: null,
      variables_changed: ['counter'],
    });
    const next = await manager.execute('state', { code: 'counter += 1\ncounter' });
    expect(next).toEqual({ output: '', result: '42', error: null, variables_changed: ['counter'] });
  });

  test('stdout and stderr are captured in the order written', async () => {
    const run = await manager.execute('output', {
      code: "import sys\nprint('one')\nprint('two', file=sys.stderr)\nprint('three')",
    });
    expect(run.output).toBe('one\ntwo\nthree\n');
    expect(run.error).toBeNull();
  });

  test('a Python exception comes back in error with its traceback', async () => {
    const run = await manager.execute('errors', {
      code: "def divide(a, b):\n    return a / b\n\nprint('before')\ndivide(1, 0)",
    });
    expect(run.output).toBe('before\n');
    expect(run.result).toBeNull();
    expect(run.error).toMatch(/^Traceback \(most recent call last\):/);
    expect(run.error).toContain('line 2, in divide');
    expect(run.error).toContain('return a / b');
    expect(run.error).toMatch(/ZeroDivisionError: division by zero$/);
    expect(run.error).not.toContain('runner'); // the traceback starts at the user's code
    expect(run.variables_changed).toEqual(['divide']);
  });

  test('a syntax error is reported, not thrown', async () => {
    const run = await manager.execute('errors', { code: 'def broken(:\n  pass' });
    expect(run.error).toContain('SyntaxError');
  });

  test('result: strings as they are, JSON when possible, repr otherwise', async () => {
    expect((await manager.execute('results', { code: "'text'" })).result).toBe('text');
    expect((await manager.execute('results', { code: "{'a': [1, 2.5, None, True]}" })).result).toBe(
      '{"a": [1, 2.5, null, true]}',
    );
    expect((await manager.execute('results', { code: '{1, 2}' })).result).toBe('{1, 2}');
    expect((await manager.execute('results', { code: 'None' })).result).toBeNull();
    expect((await manager.execute('results', { code: 'x = 1' })).result).toBeNull();
  });

  test('result_var selects the returned value; return_result false returns none', async () => {
    expect((await manager.execute('results', { code: 'answer = [1, 2, 3]\n99', resultVar: 'answer' })).result).toBe(
      '[1, 2, 3]',
    );
    expect((await manager.execute('results', { code: '99', returnResult: false })).result).toBeNull();
    const missing = await manager.execute('results', { code: 'pass', resultVar: 'nowhere' });
    expect(missing.error).toContain("result_var 'nowhere' is not defined");
  });

  test('the result is truncated to max_return_chars', async () => {
    const run = await manager.execute('results', { code: "'x' * 5000", maxReturnChars: 200 });
    expect(run.result!.length).toBeLessThanOrEqual(200);
    expect(run.result).toMatch(/^x+\n\.\.\. \[truncated: 5000 characters in all\]$/);
  });

  test('output is capped at maxOutputChars and the loop still finishes', async () => {
    const run = await manager.execute('output', { code: "for i in range(100_000):\n    print('line', i)\n'done'" });
    expect(run.output.length).toBeLessThanOrEqual(1_000);
    expect(run.output).toMatch(/^line 0\nline 1\n/);
    expect(run.output).toMatch(/\[truncated: \d+ characters in all\]$/);
    expect(run.result).toBe('done');
  });

  test('variables_changed lists added and rebound names, not mutated or untouched ones', async () => {
    await manager.execute('changes', { code: 'a = [1]\nb = 2' });
    const run = await manager.execute('changes', { code: 'a.append(2)\nb = 3\nc = 4\nimport json' });
    expect(run.variables_changed).toEqual(['b', 'c']);
  });

  test('concurrent calls on one session run one at a time, in order', async () => {
    await manager.execute('order', { code: 'seen = []' });
    const calls = [1, 2, 3, 4].map((n) =>
      manager.execute('order', { code: `import time\ntime.sleep(0.0${5 - n})\nseen.append(${n})` }),
    );
    await Promise.all(calls);
    expect((await manager.execute('order', { code: 'seen' })).result).toBe('[1, 2, 3, 4]');
  });

  test('SystemExit is an error, and the sandbox carries on', async () => {
    await manager.execute('exits', { code: 'kept = 1' });
    expect((await manager.execute('exits', { code: 'raise SystemExit(3)' })).error).toContain('SystemExit: 3');
    expect((await manager.execute('exits', { code: 'kept' })).result).toBe('1');
  });
});

describe('variables', () => {
  test('inspect one variable and the overview', async () => {
    await manager.execute('inspect', { code: "items = list(range(100))\nname = 'memd'\nimport math" });
    const one = await manager.inspect('inspect', 'items', 20);
    expect(one).toMatchObject({ variable: 'items', type: 'list' });
    expect((one as { preview: string }).preview.length).toBeLessThanOrEqual(20);
    expect((one as { size_bytes: number }).size_bytes).toBeGreaterThan(800);
    const overview = await manager.inspect('inspect', undefined);
    expect(overview).toMatchObject({
      variable_count: 2,
      variables: { items: 'list, 100 items', name: 'str, 4 chars' },
    });
    expect((overview as { total_size_bytes: number }).total_size_bytes).toBeGreaterThan(800);
  });

  test('a variable whose repr() fails can still be inspected', async () => {
    await manager.execute('inspect', {
      code: "class Odd:\n    def __repr__(self):\n        raise ValueError('no repr')\nodd = Odd()",
    });
    expect(await manager.inspect('inspect', 'odd')).toMatchObject({
      variable: 'odd',
      type: 'Odd',
      preview: '<Odd whose repr() failed: ValueError: no repr>',
    });
    expect(await manager.inspect('inspect', undefined)).toMatchObject({ variables: { odd: 'Odd' } });
  });

  test('inspecting an unknown variable is not_found', async () => {
    await expect(manager.inspect('inspect', 'ghost')).rejects.toMatchObject({ code: 'not_found' });
  });

  test('setVariable binds JSON data as dicts and lists', async () => {
    const bound = await manager.setVariable('inject', 'records', [
      { id: 1, tags: ['a'] },
      { id: 2, tags: [] },
    ]);
    expect(bound).toEqual({
      variable: 'records',
      type: 'list',
      preview: "[{'id': 1, 'tags': ['a']}, {'id': 2, 'tags': []}]",
    });
    const run = await manager.execute('inject', { code: "type(records[0]).__name__, records[0]['tags'][0]" });
    expect(run.result).toBe('["dict", "a"]');
  });

  test('setVariable refuses names that are not plain identifiers', async () => {
    for (const name of ['1abc', 'class', '__builtins__', 'a-b']) {
      await expect(manager.setVariable('inject', name, 1)).rejects.toBeInstanceOf(AppError);
    }
  });

  test('getVariableText renders for prompts and is null when undefined', async () => {
    await manager.execute('text', { code: "doc = 'hello world'\ndata = {'k': 1}\nnothing = None" });
    expect(await manager.getVariableText('text', 'doc', 100)).toBe('hello world');
    expect(await manager.getVariableText('text', 'data', 100)).toBe('{"k": 1}');
    expect(await manager.getVariableText('text', 'nothing', 100)).toBeNull();
    expect(await manager.getVariableText('text', 'ghost', 100)).toBeNull();
  });

  test('status reports variables, the memory limit and counters', async () => {
    expect(await manager.status('never-used')).toEqual({
      exists: false,
      variable_count: 0,
      variables: [],
      total_size_bytes: 0,
      memory_limit_bytes: 256 * 1024 * 1024,
      metadata: null,
    });
    await manager.execute('status', { code: 'x = 1' });
    await manager.execute('status', { code: 'y = 2' });
    await manager.inspect('status', 'x');
    const status = await manager.status('status');
    expect(status).toMatchObject({
      exists: true,
      variable_count: 2,
      variables: ['x', 'y'],
      memory_limit_bytes: 268435456,
    });
    expect(status.metadata).toMatchObject({ exec_count: 2, total_operations: 3 });
    expect(Date.parse(status.metadata!.created_at)).toBeLessThanOrEqual(Date.parse(status.metadata!.last_exec_at!));
  });
});

describe('host helpers', () => {
  test('llm_query and recall reach the host of their own session', async () => {
    const asked = await manager.execute('host-a', { code: "llm_query('what is 2+2?')" });
    expect(asked.result).toBe('host-a answers: what is 2+2?');
    const recalled = await manager.execute('host-b', { code: "found = recall('deadlines', limit=3)\nfound" });
    expect(JSON.parse(recalled.result!)).toEqual([{ session: 'host-b', query: 'deadlines', limit: 3 }]);
  });

  test('recall checks its limit before asking the host', async () => {
    expect((await manager.execute('host-a', { code: "recall('x', limit=0)" })).error).toMatch(
      /ValueError: recall limit must be between 1 and 500$/,
    );
  });

  test('a host failure is a Python exception the code can catch', async () => {
    const { manager: failing } = createManager({
      config: { spare: 'off' },
      hostFor: () => ({
        llmQuery: async () => {
          throw new Error('model offline');
        },
        recall: async () => [],
      }),
    });
    try {
      const run = await failing.execute('s', {
        code: "try:\n    llm_query('hi')\nexcept RuntimeError as e:\n    caught = str(e)\ncaught",
      });
      expect(run.result).toBe('model offline');
      expect((await failing.execute('s', { code: "llm_query('hi')" })).error).toMatch(
        /SandboxHostError: model offline$/,
      );
    } finally {
      await failing.close();
    }
  });
});

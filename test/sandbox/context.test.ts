import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  ContextService,
  extractCode,
  type FoundMemory,
  type MemorySearch,
  type SandboxScope,
} from '../../src/core/context/index.js';
import type { SandboxManager } from '../../src/sandbox/index.js';
import { ScriptedLlm, createManager, echoHost, type ScriptedReply } from './support.js';

let manager: SandboxManager;
const memories = [
  { id: 'mem_1', content: 'The launch moved to March 3.', type: 'episodic' },
  { id: 'mem_2', content: 'Budget approved: 40k.', type: 'semantic' },
];

beforeAll(async () => {
  ({ manager } = createManager({
    hostFor: (sessionId) => ({ ...echoHost(sessionId), recall: async (_query, limit) => memories.slice(0, limit) }),
  }));
  await manager.warmUp();
});
afterAll(() => manager.close());

const search: MemorySearch = async (_workspaceId, { limit }) => ({
  memories: memories.slice(0, limit) as unknown as FoundMemory[],
  total_available: memories.length,
});
const scope = (sessionId: string): SandboxScope => ({ sessionId, workspaceId: 'ws' });

function service(replies: ScriptedReply[], rlmTimeBudgetMs?: number) {
  const llm = new ScriptedLlm(replies);
  const context = new ContextService({ sandboxes: manager, llm, search, rlmTimeBudgetMs });
  return { llm, context };
}

const python = (code: string) => `Here is the code:\n\`\`\`python\n${code}\n\`\`\`\nIt prints the answer.`;

describe('query', () => {
  test('without a language model it is provider_unavailable', async () => {
    const context = new ContextService({ sandboxes: manager, llm: null, search });
    await expect(context.query(scope('q'), { prompt: 'hi' })).rejects.toMatchObject({ code: 'provider_unavailable' });
    await expect(context.rlm(scope('q'), { goal: 'anything' })).rejects.toMatchObject({ code: 'provider_unavailable' });
  });

  test("sends the prompt with the variables' contents, cut to max_context_chars, and stores the answer", async () => {
    await manager.execute('query', { code: "notes = 'alpha ' * 1000\ncounts = {'a': 1}" });
    const { llm, context } = service(['There are 1000 alphas.']);
    const result = await context.query(scope('query'), {
      prompt: 'How many alphas?',
      variables: ['notes', 'counts'],
      maxContextChars: 400,
      resultVar: 'answer',
    });
    expect(result).toEqual({
      response: 'There are 1000 alphas.',
      variables_used: ['notes', 'counts'],
      variables_included: ['notes', 'counts'],
      tokens_used: expect.any(Number),
      result_var: 'answer',
    });
    const prompt = llm.prompt(0);
    expect(prompt.startsWith('How many alphas?\n\n### notes\nalpha alpha')).toBe(true);
    expect(prompt).toContain('[truncated: 6000 characters in all]');
    expect(prompt).toContain('### counts\n{"a": 1}');
    expect(prompt.length).toBeLessThan(600);
    expect((await manager.execute('query', { code: 'answer' })).result).toBe('There are 1000 alphas.');
  });

  test('an unknown variable is not_found', async () => {
    const { context } = service(['unused']);
    await expect(context.query(scope('query'), { prompt: 'x', variables: ['nowhere'] })).rejects.toMatchObject({
      code: 'not_found',
    });
  });
});

describe('rlm', () => {
  test('writes code, runs it, evaluates, and continues until the evaluator says ACHIEVED', async () => {
    const { llm, context } = service([
      python("numbers = [3, 1, 2]\nprint('sorted:', sorted(numbers))"),
      'CONTINUE\nThe list is sorted but the total is missing.',
      python("print('total:', sum(numbers))"),
      'ACHIEVED\nThe total is 6.',
    ]);
    const result = await context.rlm(scope('rlm-eval'), { goal: 'Sum the numbers', resultVar: 'rlm_answer' });
    expect(result).toEqual({
      result: 'total: 6\n',
      iterations: 2,
      goal_achieved: true,
      trace: [
        {
          iteration: 1,
          generated_code: "numbers = [3, 1, 2]\nprint('sorted:', sorted(numbers))",
          exec_output: 'sorted: [1, 2, 3]',
          variables_changed: ['numbers'],
          evaluation: 'CONTINUE\nThe list is sorted but the total is missing.',
          action: 'continue',
        },
        {
          iteration: 2,
          generated_code: "print('total:', sum(numbers))",
          exec_output: 'total: 6',
          variables_changed: [],
          evaluation: 'ACHIEVED\nThe total is 6.',
          action: 'achieved',
        },
      ],
    });
    expect(llm.requests).toHaveLength(4);
    expect(llm.prompt(2)).toContain('Step 1 output:\nsorted: [1, 2, 3]');
    expect((await manager.execute('rlm-eval', { code: 'rlm_answer' })).result).toBe('total: 6\n');
  });

  test('code that sets _goal_achieved and _final_result finishes without asking the evaluator', async () => {
    const { llm, context } = service([python("_final_result = {'answer': 42}\n_goal_achieved = True")]);
    const result = await context.rlm(scope('rlm-flag'), { goal: 'Find the answer', detailLevel: 'minimal' });
    expect(result).toEqual({
      result: '{"answer": 42}',
      iterations: 1,
      goal_achieved: true,
      trace: [{ iteration: 1, action: 'achieved' }],
    });
    expect(llm.requests).toHaveLength(1);
  });

  test('flags from an earlier run do not end the next one', async () => {
    const { llm, context } = service([python('x = 1'), 'FAILED\nNo way to do it.']);
    const result = await context.rlm(scope('rlm-flag'), { goal: 'Another goal', detailLevel: 'brief' });
    expect(result).toEqual({
      result: null,
      iterations: 1,
      goal_achieved: false,
      trace: [{ iteration: 1, action: 'failed' }],
    });
    expect(llm.requests).toHaveLength(2);
  });

  test('stops at max_iterations when the evaluator keeps saying CONTINUE', async () => {
    const { context } = service([python("print('a')"), 'CONTINUE', python("print('b')"), 'CONTINUE']);
    const result = await context.rlm(scope('rlm-max'), { goal: 'Never quite done', maxIterations: 2 });
    expect(result.iterations).toBe(2);
    expect(result.goal_achieved).toBe(false);
    expect(result.result).toBe('b\n');
    expect(result.trace.map((entry) => entry.action)).toEqual(['continue', 'continue']);
  });

  test('memory_query loads recalled memories into `memories` and shows them to the model', async () => {
    const { llm, context } = service([python("_final_result = memories[0]['content']\n_goal_achieved = True")]);
    const result = await context.rlm(scope('rlm-memories'), {
      goal: 'When is the launch?',
      memoryQuery: 'launch',
      memoryLimit: 1,
      detailLevel: 'detailed',
    });
    expect(result).toMatchObject({ result: 'The launch moved to March 3.', goal_achieved: true, iterations: 1 });
    expect(llm.prompt(0)).toContain(
      '### memories\n[{"id": "mem_1", "content": "The launch moved to March 3.", "type": "episodic"}]',
    );
    expect(result.trace[0]).toHaveProperty('generated_code');
  });

  test('an error in the generated code is shown to the evaluator and in the trace', async () => {
    const { llm, context } = service([python('1 / 0'), 'FAILED\nDivision by zero.']);
    const result = await context.rlm(scope('rlm-error'), { goal: 'Divide' });
    expect(result.trace[0]).toMatchObject({ action: 'failed' });
    expect((result.trace[0] as { exec_output: string }).exec_output).toMatch(
      /^Error:\nTraceback[\s\S]*ZeroDivisionError: division by zero$/,
    );
    expect(llm.prompt(1)).toContain('ZeroDivisionError');
  });

  test('the run ends when its time budget is spent, keeping the step that ran', async () => {
    await manager.execute('rlm-budget', { code: 'pass' }); // the budget should go to the loop, not to starting a sandbox
    const { context } = service([python('started = True'), 'hang'], 1_500);
    const result = await context.rlm(scope('rlm-budget'), { goal: 'Slow evaluation' });
    expect(result).toMatchObject({ iterations: 1, goal_achieved: false });
    expect(result.trace[0]).toMatchObject({
      evaluation: 'not evaluated: the time budget ran out',
      action: 'continue',
      variables_changed: ['started'],
    });
  });

  test('an unknown detail level is a validation error', async () => {
    const { context } = service([]);
    await expect(context.rlm(scope('rlm-x'), { goal: 'x', detailLevel: 'everything' })).rejects.toMatchObject({
      code: 'validation_error',
    });
  });
});

describe('extractCode', () => {
  test('python blocks first, then untagged blocks, then the whole reply', () => {
    expect(extractCode('```text\nnot code\n```\n```python\na = 1\n```\nand\n```py\nb = 2\n```')).toBe('a = 1\n\nb = 2');
    expect(extractCode('```\nprint(1)\n```')).toBe('print(1)');
    expect(extractCode('print(2)')).toBe('print(2)');
  });
});

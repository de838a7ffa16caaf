import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { completeJson, extractJson } from '../../../src/providers/llm/index.js';
import { startFakeOpenAI, type FakeLlmServer } from '../../support/fake-llm-server.js';
import { appErrorFrom, providerFor } from './setup.js';

describe('extractJson', () => {
  it.each([
    ['a bare object', '{"a":1}', { a: 1 }],
    ['a fenced object', 'Here you go:\n```json\n{"a": [1, 2]}\n```\nAnything else?', { a: [1, 2] }],
    ['an array in prose', 'The facts are [{"f":"x"}] as requested.', [{ f: 'x' }]],
    ['JSON after bracketed prose', 'Using {placeholder} and [see above]: {"ok": true}', { ok: true }],
    ['braces inside strings', '{"text": "a } and a { and \\"quotes\\""}', { text: 'a } and a { and "quotes"' }],
    ['JSON after a mismatched bracket', 'odd (see [note}) then {"x": 2}', { x: 2 }],
  ])('finds %s', (_label, text, expected) => {
    expect(extractJson(text)).toEqual(expected);
  });

  it.each([
    ['plain prose', 'I cannot help with that.'],
    ['a bare number', '42'],
    ['a truncated answer, even if a complete fragment sits inside it', '{"facts": [{"f": "x"}, {"f": "y'],
  ])('finds nothing in %s', (_label, text) => {
    expect(extractJson(text)).toBeUndefined();
  });
});

describe('completeJson', () => {
  const Facts = z.object({ facts: z.array(z.string()) });
  const request = {
    system: 'Extract facts as {"facts": string[]}.',
    messages: [{ role: 'user' as const, content: 'Alice likes tea.' }],
  };

  let fake: FakeLlmServer;
  beforeEach(async () => {
    fake = await startFakeOpenAI();
  });
  afterEach(async () => {
    await fake.close();
  });

  it('returns the validated value from a prose-wrapped answer, in JSON mode', async () => {
    fake.script({ text: 'Sure!\n```json\n{"facts": ["Alice likes tea"]}\n```', inputTokens: 30, outputTokens: 12 });
    const llm = providerFor({ baseUrl: fake.baseUrl });
    const result = await completeJson(llm, request, (value) => Facts.parse(value));
    expect(result).toEqual({ value: { facts: ['Alice likes tea'] }, inputTokens: 30, outputTokens: 12 });
    expect(fake.requests[0]?.body.response_format).toEqual({ type: 'json_object' });
  });

  it('sends one corrective message quoting the problem, and sums the usage of both calls', async () => {
    fake.script(
      { text: '{"facts": "Alice likes tea"}', inputTokens: 30, outputTokens: 10 },
      { text: '{"facts": ["Alice likes tea"]}', inputTokens: 50, outputTokens: 11 },
    );
    const llm = providerFor({ baseUrl: fake.baseUrl });
    const result = await completeJson(llm, request, (value) => Facts.parse(value));

    expect(result).toEqual({ value: { facts: ['Alice likes tea'] }, inputTokens: 80, outputTokens: 21 });
    const retry = fake.requests[1]?.messages ?? [];
    expect(retry.slice(1, 3)).toEqual([
      { role: 'user', content: 'Alice likes tea.' },
      { role: 'assistant', content: '{"facts": "Alice likes tea"}' },
    ]);
    expect(retry[3]?.role).toBe('user');
    expect(retry[3]?.content).toContain('does not have the expected shape');
    expect(retry[3]?.content).toContain('facts');
  });

  it('fails with provider_error when the corrected answer is still unusable', async () => {
    fake.script('I would rather not.', 'Still no JSON, sorry.');
    const llm = providerFor({ baseUrl: fake.baseUrl, model: 'stubborn' });
    const error = await appErrorFrom(
      completeJson(llm, request, (value) => Facts.parse(value)),
      'provider_error',
    );
    expect(fake.requests).toHaveLength(2);
    expect(fake.requests[1]?.messages.at(-1)?.content).toContain('contains no complete JSON object or array');
    expect(error.message).toContain('LLM provider openai (model stubborn) gave no usable JSON');
    expect(error.message).toContain('Still no JSON, sorry.');
  });
});

import { afterEach, describe, expect, it } from 'vitest';
import type { LlmConfig } from '../../../src/config.js';
import { JSON_INSTRUCTION } from '../../../src/providers/llm/sdk-provider.js';
import type { LlmRequest } from '../../../src/providers/llm/types.js';
import { startFakeAnthropic, startFakeGoogle, type FakeLlmServer } from '../../support/fake-llm-server.js';
import { appErrorFrom, providerFor, TEST_API_KEY } from './setup.js';

const conversation: LlmRequest = {
  system: 'You summarise.',
  messages: [
    { role: 'user', content: 'First point.' },
    { role: 'assistant', content: 'Noted.' },
    { role: 'user', content: 'Summarise.' },
  ],
};
const expectedMessages = [
  { role: 'system', content: 'You summarise.' },
  { role: 'user', content: 'First point.' },
  { role: 'assistant', content: 'Noted.' },
  { role: 'user', content: 'Summarise.' },
];

interface Case {
  provider: LlmConfig['provider'];
  model: string;
  start: typeof startFakeAnthropic;
  path: string;
  authHeader: string;
}

const cases: Case[] = [
  {
    provider: 'anthropic',
    model: 'claude-test',
    start: startFakeAnthropic,
    path: '/v1/messages',
    authHeader: 'x-api-key',
  },
  {
    provider: 'google',
    model: 'gemini-test',
    start: startFakeGoogle,
    path: '/v1beta/models/gemini-test:generateContent',
    authHeader: 'x-goog-api-key',
  },
];

let fake: FakeLlmServer | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

describe.each(cases)('$provider provider', ({ provider, model, start, path, authHeader }) => {
  it('reaches the API path with its auth header and sends the conversation as given', async () => {
    fake = await start({ replies: [{ text: 'A summary.', inputTokens: 40, outputTokens: 4 }] });
    const llm = providerFor({ provider, model, baseUrl: fake.baseUrl });

    await expect(llm.complete(conversation)).resolves.toEqual({ text: 'A summary.', inputTokens: 40, outputTokens: 4 });
    const [request] = fake.requests;
    expect(request?.path).toBe(path);
    expect(request?.headers[authHeader]).toBe(TEST_API_KEY);
    expect(request?.model).toBe(model);
    expect(request?.messages).toEqual(expectedMessages);
  });

  it('retries an overloaded upstream', async () => {
    fake = await start({ replies: [{ status: provider === 'anthropic' ? 529 : 503, message: 'overloaded' }, 'ok'] });
    const llm = providerFor({ provider, model, baseUrl: fake.baseUrl });
    await expect(llm.complete(conversation)).resolves.toMatchObject({ text: 'ok' });
    expect(fake.requests).toHaveLength(2);
  });

  it('gives up with the upstream message after maxRetries + 1 attempts', async () => {
    fake = await start({ respond: () => ({ status: 500, message: 'internal trouble' }) });
    const llm = providerFor({ provider, model, baseUrl: fake.baseUrl, maxRetries: 1 });
    const error = await appErrorFrom(llm.complete(conversation), 'provider_error');
    expect(fake.requests).toHaveLength(2);
    expect(error.message).toContain(`LLM provider ${provider} (model ${model}) failed after 2 attempts`);
    expect(error.message).toContain('internal trouble');
  });
});

describe('JSON mode on hosted APIs', () => {
  it('anthropic: asks in the system prompt only (no schema-free JSON mode exists)', async () => {
    fake = await startFakeAnthropic({ replies: ['{"a":1}'] });
    const llm = providerFor({ provider: 'anthropic', model: 'claude-test', baseUrl: fake.baseUrl });
    await llm.complete({ ...conversation, json: true });
    const [request] = fake.requests;
    expect(request?.messages[0]).toEqual({ role: 'system', content: `You summarise.\n\n${JSON_INSTRUCTION}` });
    expect(request?.body.output_format).toBeUndefined();
  });

  it('google: sets responseMimeType to application/json and asks in the system prompt', async () => {
    fake = await startFakeGoogle({ replies: ['{"a":1}'] });
    const llm = providerFor({ provider: 'google', model: 'gemini-test', baseUrl: fake.baseUrl });
    await llm.complete({ ...conversation, json: true });
    const [request] = fake.requests;
    expect(request?.body.generationConfig).toMatchObject({ responseMimeType: 'application/json' });
    expect(request?.messages[0]).toEqual({ role: 'system', content: `You summarise.\n\n${JSON_INSTRUCTION}` });
  });
});

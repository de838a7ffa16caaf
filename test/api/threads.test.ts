import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAI, type FakeLlmServer } from '../support/fake-llm-server.js';
import { ManualClock, client, startServer, type Client, type TestServer } from '../support/server.js';
import { providerFor } from '../providers/llm/setup.js';

const clock = new ManualClock();
let server: TestServer;
let api: Client;

beforeAll(async () => {
  server = await startServer({ clock });
  api = client(server.url);
  await server.drainTasks();
});
afterAll(() => server.stop());

async function thread(workspace: string, body: Record<string, unknown> = {}) {
  const created = await api.post(`/v1/threads?workspace_id=${workspace}`, body);
  expect(created.status).toBe(201);
  return created.body.thread as Record<string, any>;
}

const say = (content: unknown, role = 'user') => ({ role, content });
const append = (workspace: string, id: string, messages: unknown[]) => api.post(`/v1/threads/${id}/messages?workspace_id=${workspace}`, { messages });

describe('chat threads', () => {
  it('creates threads with a generated or a chosen id, unique per workspace, and serves them under both paths', async () => {
    await api.post('/v1/workspaces', { id: 'chat-a', name: 'A' });
    await api.post('/v1/workspaces', { id: 'chat-b', name: 'B' });
    const generated = await thread('chat-a', { title: 'First', user_id: 'u1', observer_id: 'agent', subject_id: 'ana', metadata: { channel: 'web' } });
    expect(generated).toMatchObject({
      thread_id: expect.stringMatching(/^thread_[0-9a-f]{16}$/),
      workspace_id: 'chat-a',
      context_id: '_default',
      title: 'First',
      observer_id: 'agent',
      subject_id: 'ana',
      message_count: 0,
      last_decomposed_index: -1,
      last_decomposed_at: null,
      expires_at: null,
      metadata: { channel: 'web' },
    });
    expect(generated.id).toBe(generated.thread_id);

    const chosen = await api.post('/v1/chat/threads', { workspace_id: 'chat-a', thread_id: 'conv-1', user_id: 'u2' });
    expect(chosen.status).toBe(201);
    expect((await api.post('/v1/threads', { workspace_id: 'chat-a', thread_id: 'conv-1' })).status).toBe(409);
    expect((await api.post('/v1/threads', { workspace_id: 'chat-b', thread_id: 'conv-1' })).status).toBe(201);
    expect((await api.get('/v1/chat/threads/conv-1?workspace_id=chat-a')).body).toMatchObject({ thread_id: 'conv-1', user_id: 'u2' });
    expect((await api.get('/v1/threads/conv-1?workspace_id=chat-b')).body.user_id).toBeNull();

    const all = await api.get('/v1/threads?workspace_id=chat-a');
    expect(all.body.total_count).toBe(2);
    expect((await api.get('/v1/threads?workspace_id=chat-a&user_id=u1')).body.threads.map((t: { thread_id: string }) => t.thread_id)).toEqual([generated.thread_id]);
    const page = await api.get('/v1/chat/threads?workspace_id=chat-a&limit=1&offset=1');
    expect([page.body.threads.length, page.body.total_count]).toEqual([1, 2]);

    clock.advance(1_000);
    const updated = await api.put(`/v1/threads/${generated.thread_id}?workspace_id=chat-a`, { title: 'Renamed', metadata: { channel: 'app' } });
    expect(updated.body).toMatchObject({ thread_id: generated.thread_id, title: 'Renamed', metadata: { channel: 'app' }, subject_id: 'ana' });
    expect(updated.body.updated_at > generated.updated_at).toBe(true);
  });

  it('appends messages with zero-based increasing indexes, content as text or blocks', async () => {
    const t = await thread('chat-a');
    const first = await append('chat-a', t.thread_id, [say('Hello'), say([{ type: 'text', text: 'Hi! How can I help?' }, { type: 'image', data: { url: 'https://x/y.png' } }], 'assistant')]);
    expect(first.status).toBe(201);
    expect(first.body.thread_id).toBe(t.thread_id);
    expect(first.body.new_message_count).toBe(2);
    expect(first.body.messages).toEqual([
      {
        message_id: expect.stringMatching(/^msg_[0-9a-f]{16}$/),
        id: first.body.messages[0].message_id,
        thread_id: t.thread_id,
        index: 0,
        message_index: 0,
        role: 'user',
        content: 'Hello',
        metadata: {},
        created_at: expect.any(String),
      },
      expect.objectContaining({ index: 1, role: 'assistant', content: [{ type: 'text', text: 'Hi! How can I help?' }, { type: 'image', data: { url: 'https://x/y.png' } }] }),
    ]);
    const second = await api.post(`/v1/chat/threads/${t.thread_id}/messages?workspace_id=chat-a`, { messages: [say('{"ok":true}', 'tool'), say('Be brief.', 'system')] });
    expect(second.body.messages.map((m: { index: number }) => m.index)).toEqual([2, 3]);
    expect((await api.get(`/v1/threads/${t.thread_id}?workspace_id=chat-a`)).body.message_count).toBe(4);
  });

  it('keeps indexes unique and increasing under 50 concurrent appends', async () => {
    const t = await thread('chat-a');
    const responses = await Promise.all(Array.from({ length: 50 }, (_, i) => append('chat-a', t.thread_id, [say(`m${i} first`), say(`m${i} second`)])));
    expect(responses.every((r) => r.status === 201)).toBe(true);
    for (const r of responses) {
      const [a, b] = r.body.messages;
      expect(b.index).toBe(a.index + 1);
      expect(b.content).toBe(a.content.replace('first', 'second'));
    }
    const listed = await api.get(`/v1/threads/${t.thread_id}/messages?workspace_id=chat-a&limit=1000`);
    expect(listed.body.total_count).toBe(100);
    expect(listed.body.messages.map((m: { index: number }) => m.index)).toEqual(Array.from({ length: 100 }, (_, i) => i));
  });

  it('pages messages by after_index, order, limit and offset, and serves the full thread', async () => {
    const t = await thread('chat-a', { title: 'Paging' });
    await append('chat-a', t.thread_id, Array.from({ length: 6 }, (_, i) => say(`message ${i}`)));
    const base = `/v1/threads/${t.thread_id}/messages?workspace_id=chat-a`;
    const after = await api.get(`${base}&after_index=2`);
    expect([after.body.messages.map((m: { index: number }) => m.index), after.body.total_count]).toEqual([[3, 4, 5], 3]);
    const desc = await api.get(`${base}&order=desc&limit=2&offset=1`);
    expect([desc.body.messages.map((m: { index: number }) => m.index), desc.body.total_count]).toEqual([[4, 3], 6]);
    const full = await api.get(`/v1/threads/${t.thread_id}/full?workspace_id=chat-a&limit=2&order=desc`);
    expect(full.body.thread).toMatchObject({ thread_id: t.thread_id, title: 'Paging', message_count: 6 });
    expect([full.body.messages.map((m: { index: number }) => m.index), full.body.total_messages]).toEqual([[5, 4], 6]);
  });

  it('deletes a message without reusing its index, and a thread with its messages', async () => {
    const t = await thread('chat-a');
    const [, middle] = (await append('chat-a', t.thread_id, [say('a'), say('b'), say('c')])).body.messages;
    expect((await api.delete(`/v1/threads/${t.thread_id}/messages/${middle.message_id}?workspace_id=chat-a`)).status).toBe(204);
    expect((await api.delete(`/v1/threads/${t.thread_id}/messages/${middle.message_id}?workspace_id=chat-a`)).status).toBe(404);
    expect((await append('chat-a', t.thread_id, [say('d')])).body.messages[0].index).toBe(3);
    const listed = await api.get(`/v1/threads/${t.thread_id}/messages?workspace_id=chat-a`);
    expect(listed.body.messages.map((m: { content: string }) => m.content)).toEqual(['a', 'c', 'd']);
    expect((await api.get(`/v1/threads/${t.thread_id}?workspace_id=chat-a`)).body.message_count).toBe(3);

    expect((await api.delete(`/v1/chat/threads/${t.thread_id}?workspace_id=chat-a`)).status).toBe(204);
    expect((await api.get(`/v1/threads/${t.thread_id}?workspace_id=chat-a`)).status).toBe(404);
    expect((await api.get(`/v1/threads/${t.thread_id}/messages?workspace_id=chat-a`)).status).toBe(404);
    expect((await server.app.services.storage.threads.listMessages('chat-a', t.thread_id, { order: 'asc', limit: 10, offset: 0 })).total).toBe(0);
    expect((await api.delete(`/v1/threads/${t.thread_id}?workspace_id=chat-a`)).status).toBe(404);
  });

  it('expires threads: 410 until the background cleanup removes them with their messages', async () => {
    expect((await api.post('/v1/threads?workspace_id=chat-a', { expires_at: new Date(clock.now().getTime() - 1).toISOString() })).status).toBe(422);
    const t = await thread('chat-a', { expires_at: new Date(clock.now().getTime() + 60_000).toISOString(), title: 'Short-lived' });
    await append('chat-a', t.thread_id, [say('soon gone')]);
    clock.advance(61_000);
    expect((await api.get(`/v1/threads/${t.thread_id}?workspace_id=chat-a`)).status).toBe(410);
    expect((await append('chat-a', t.thread_id, [say('too late')])).status).toBe(410);
    expect((await api.get('/v1/threads?workspace_id=chat-a&limit=200')).body.threads.map((x: { thread_id: string }) => x.thread_id)).not.toContain(t.thread_id);
    clock.advance(300_000);
    await server.drainTasks();
    expect((await api.get(`/v1/threads/${t.thread_id}?workspace_id=chat-a`)).status).toBe(404);
    expect((await server.app.services.storage.threads.listMessages('chat-a', t.thread_id, { order: 'asc', limit: 10, offset: 0 })).total).toBe(0);
  });

  it('keeps workspaces apart', async () => {
    const t = await thread('chat-a', { title: 'Private' });
    await append('chat-a', t.thread_id, [say('secret')]);
    expect((await api.get(`/v1/threads/${t.thread_id}?workspace_id=chat-b`)).status).toBe(404);
    expect((await append('chat-b', t.thread_id, [say('intrusion')])).status).toBe(404);
    expect((await api.get(`/v1/threads/${t.thread_id}/messages?workspace_id=chat-b`)).status).toBe(404);
    expect((await api.post(`/v1/threads/${t.thread_id}/decompose?workspace_id=chat-b`)).status).toBe(404);
    expect((await api.delete(`/v1/threads/${t.thread_id}?workspace_id=chat-b`)).status).toBe(404);
    expect((await api.get('/v1/threads?workspace_id=chat-b')).body.threads.map((x: { title: string }) => x.title)).not.toContain('Private');
    expect((await api.get(`/v1/threads/${t.thread_id}?workspace_id=chat-a`)).body.message_count).toBe(1);
    expect((await api.get('/v1/threads?workspace_id=no-such-ws')).body).toEqual({ threads: [], total_count: 0 });
  });

  it('answers bad input with a 4xx and changes nothing', async () => {
    const t = await thread('chat-a');
    await append('chat-a', t.thread_id, [say('only one')]);
    const badAppends = [
      [],
      [say('x', 'robot')],
      [say('')],
      [say([])],
      [say([{ text: 'no type' }])],
      [{ role: 'user' }],
      [{ ...say('x'), extra: true }],
      [say(42)],
    ];
    for (const messages of badAppends) expect((await append('chat-a', t.thread_id, messages)).status, JSON.stringify(messages)).toBe(422);
    expect((await api.post(`/v1/threads/${t.thread_id}/messages?workspace_id=chat-a`, {})).status).toBe(422);
    expect((await append('chat-a', 'thread_missing', [say('x')])).status).toBe(404);
    const base = `/v1/threads/${t.thread_id}/messages?workspace_id=chat-a`;
    for (const query of ['limit=0', 'limit=1001', 'offset=-1', 'order=sideways', 'after_index=x']) expect((await api.get(`${base}&${query}`)).status, query).toBe(422);
    for (const query of ['limit=0', 'limit=201', 'offset=-1']) expect((await api.get(`/v1/threads?workspace_id=chat-a&${query}`)).status, query).toBe(422);
    for (const body of [{ thread_id: 'bad id!' }, { title: 5 }, { expires_at: 'tomorrow' }, { unknown: 1 }]) {
      expect((await api.post('/v1/threads?workspace_id=chat-a', body)).status, JSON.stringify(body)).toBe(422);
    }
    expect((await api.put(`/v1/threads/${t.thread_id}?workspace_id=chat-a`, { message_count: 9 })).status).toBe(422);
    expect((await api.get(`/v1/threads/${t.thread_id}?workspace_id=chat-a`)).body).toMatchObject({ message_count: 1, title: null });
  });
});

describe('thread decomposition', () => {
  const conversation = [
    say('Hi there!'),
    say('I live in Lisbon and I work as a nurse.'),
    say('That sounds lovely, how long have you been there?', 'assistant'),
    say('My favourite food is grilled sardines.'),
    say('{"weather": "sunny"}', 'tool'),
  ];

  it('extracts memories from unprocessed messages only, attributed to the thread, and twice creates nothing new', async () => {
    const t = await thread('chat-a', { observer_id: 'agent-7', subject_id: 'ana', user_id: 'u-ana' });
    await append('chat-a', t.thread_id, conversation);
    const first = await api.post(`/v1/threads/${t.thread_id}/decompose?workspace_id=chat-a`);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ thread_id: t.thread_id, workspace_id: 'chat-a', messages_processed: 5, memories_created: 2, from_index: 0, to_index: 4 });
    const memories = (await api.get('/v1/memories?workspace_id=chat-a&subject_id=ana&limit=100')).body.memories;
    expect(memories.map((m: { content: string }) => m.content).sort()).toEqual(['I live in Lisbon and I work as a nurse.', 'My favourite food is grilled sardines.']);
    const lisbon = memories.find((m: { content: string }) => m.content.includes('Lisbon'));
    expect(lisbon).toMatchObject({ observer_id: 'agent-7', subject_id: 'ana', user_id: 'u-ana', metadata: { source: 'chat_history', thread_id: t.thread_id, message_range: [1, 1] } });
    expect((await api.get(`/v1/threads/${t.thread_id}?workspace_id=chat-a`)).body).toMatchObject({ last_decomposed_index: 4, last_decomposed_at: clock.now().toISOString() });

    const second = await api.post(`/v1/chat/threads/${t.thread_id}/decompose?workspace_id=chat-a`);
    expect(second.body).toMatchObject({ messages_processed: 0, memories_created: 0, from_index: null, to_index: null });

    await append('chat-a', t.thread_id, [say('I decided to learn Portuguese this year.'), say('ok')]);
    const third = await api.post(`/v1/threads/${t.thread_id}/decompose?workspace_id=chat-a`);
    expect(third.body).toMatchObject({ messages_processed: 2, memories_created: 1, from_index: 5, to_index: 6 });
    expect((await api.get('/v1/memories?workspace_id=chat-a&subject_id=ana&limit=100')).body.total_count).toBe(3);
  });

  it('decomposes in the background once ten messages wait', async () => {
    const t = await thread('chat-a', { subject_id: 'bo' });
    await append('chat-a', t.thread_id, Array.from({ length: 9 }, (_, i) => say(`I visited Porto on day ${i + 1} of the trip.`)));
    await server.drainTasks();
    expect((await api.get(`/v1/threads/${t.thread_id}?workspace_id=chat-a`)).body.last_decomposed_index).toBe(-1);
    await append('chat-a', t.thread_id, [say('I always book the window seat on trains.')]);
    await server.drainTasks();
    expect((await api.get(`/v1/threads/${t.thread_id}?workspace_id=chat-a`)).body.last_decomposed_index).toBe(9);
    expect((await api.get('/v1/memories?workspace_id=chat-a&subject_id=bo&limit=100')).body.memories.map((m: { content: string }) => m.content)).toContain('I always book the window seat on trains.');
  });
});

describe('thread decomposition with a language model', () => {
  let fake: FakeLlmServer;
  let llmServer: TestServer;

  beforeAll(async () => {
    fake = await startFakeOpenAI();
    llmServer = await startServer({ llm: providerFor({ baseUrl: fake.baseUrl, maxRetries: 0 }) });
  });
  afterAll(async () => {
    await llmServer.stop();
    await fake.close();
  });

  it('sends chunks with earlier messages as context and stores what the model extracts', async () => {
    const llmApi = client(llmServer.url);
    const t = (await llmApi.post('/v1/threads', { subject_id: 'ana' })).body.thread;
    await llmApi.post(`/v1/threads/${t.thread_id}/messages`, { messages: Array.from({ length: 17 }, (_, i) => say(`message number ${i}`)) });
    const prompts: string[] = [];
    fake.script(
      (req) => {
        prompts.push(req.messages.at(-1)!.content);
        return JSON.stringify({ memories: [{ content: 'Ana lives in Lisbon.', category: 'profile', importance: 0.9, ref: 3 }] });
      },
      (req) => {
        prompts.push(req.messages.at(-1)!.content);
        return JSON.stringify({ memories: [{ content: 'Ana prefers tea.', category: 'preferences', importance: 0.7, ref: 'nonsense' }] });
      },
    );
    const result = await llmApi.post(`/v1/threads/${t.thread_id}/decompose`);
    expect(result.body).toMatchObject({ messages_processed: 17, memories_created: 2, from_index: 0, to_index: 16 });
    expect(prompts[0]).toContain('[NEW 14] user: message number 14');
    expect(prompts[0]).not.toContain('message number 15');
    expect(prompts[1]).toContain('[CONTEXT 10] user: message number 10');
    expect(prompts[1]).toContain('[NEW 16] user: message number 16');
    const memories = (await llmApi.get('/v1/memories?subject_id=ana')).body.memories;
    expect(memories.find((m: { content: string }) => m.content === 'Ana lives in Lisbon.')).toMatchObject({ subtype: 'profile', importance: 0.9, metadata: { message_range: [3, 3], extraction_method: 'llm' } });
    expect(memories.find((m: { content: string }) => m.content === 'Ana prefers tea.').metadata.message_range).toEqual([15, 16]);
  });
});

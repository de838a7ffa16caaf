import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAI, type FakeLlmServer } from '../support/fake-llm-server.js';
import { GoneError, NotFoundError, ValidationError, type MemdClient } from '../../packages/client/src/index.js';
import { providerFor } from '../providers/llm/setup.js';
import {
  ManualClock,
  client,
  failureOf,
  memdClient,
  startServer,
  type Client,
  type TestServer,
} from '../support/server.js';

const clock = new ManualClock();
let server: TestServer;
let memd: MemdClient;
/** For the /v1/chat/threads aliases (not operations of the document) and for bodies the client's types refuse. */
let api: Client;

beforeAll(async () => {
  server = await startServer({ clock });
  memd = memdClient(server.url);
  api = client(server.url);
  await server.drainTasks();
});
afterAll(() => server.stop());

type NewThread = NonNullable<Parameters<MemdClient['threads']['create']>[0]>;
type NewMessage = Parameters<MemdClient['threads']['append']>[1]['messages'][number];
type Role = NewMessage['role'];

async function thread(workspace: string, body: NewThread = {}) {
  const created = await memd.threads.create.withResponse(body, { query: { workspace_id: workspace } });
  expect(created.status).toBe(201);
  return created.data.thread;
}

const say = (content: NewMessage['content'], role: Role = 'user'): NewMessage => ({ role, content });
const append = (workspace: string, id: string, messages: NewMessage[]) =>
  memd.threads.append(id, { messages }, { query: { workspace_id: workspace } });
/** The query that puts a call in `workspace_id`. */
const inWorkspace = (workspace_id: string) => ({ workspace_id });
const a = inWorkspace('chat-a');

describe('chat threads', () => {
  it('creates threads with a generated or a chosen id, unique per workspace, and serves them under both paths', async () => {
    await memd.workspaces.create({ id: 'chat-a', name: 'A' });
    await memd.workspaces.create({ id: 'chat-b', name: 'B' });
    const generated = await thread('chat-a', {
      title: 'First',
      user_id: 'u1',
      observer_id: 'agent',
      subject_id: 'ana',
      metadata: { channel: 'web' },
    });
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
    expect((await failureOf(memd.threads.create({ workspace_id: 'chat-a', thread_id: 'conv-1' }))).status).toBe(409);
    expect((await memd.threads.create.withResponse({ workspace_id: 'chat-b', thread_id: 'conv-1' })).status).toBe(201);
    expect((await api.get('/v1/chat/threads/conv-1?workspace_id=chat-a')).body).toMatchObject({
      thread_id: 'conv-1',
      user_id: 'u2',
    });
    expect((await memd.threads.get('conv-1', inWorkspace('chat-b'))).user_id).toBeNull();

    expect((await memd.threads.list(a)).total_count).toBe(2);
    expect((await memd.threads.list({ ...a, user_id: 'u1' })).threads.map((t) => t.thread_id)).toEqual([
      generated.thread_id,
    ]);
    const page = await api.get('/v1/chat/threads?workspace_id=chat-a&limit=1&offset=1');
    expect([page.body.threads.length, page.body.total_count]).toEqual([1, 2]);

    clock.advance(1_000);
    const updated = await memd.threads.update(
      generated.thread_id,
      { title: 'Renamed', metadata: { channel: 'app' } },
      { query: a },
    );
    expect(updated).toMatchObject({
      thread_id: generated.thread_id,
      title: 'Renamed',
      metadata: { channel: 'app' },
      subject_id: 'ana',
    });
    expect(updated.updated_at > generated.updated_at).toBe(true);
  });

  it('refuses an expiry no date can hold (a leap second) with a 422, creating nothing', async () => {
    await memd.workspaces.create({ id: 'chat-leap', name: 'leap' });
    const refused = await api.post('/v1/threads', {
      workspace_id: 'chat-leap',
      thread_id: 'thread-leap',
      expires_at: '2016-12-31T23:59:60Z',
    });
    expect(refused.status).toBe(422);
    expect((await api.get('/v1/threads/thread-leap?workspace_id=chat-leap')).status).toBe(404);
  });

  it('appends messages with zero-based increasing indexes, content as text or blocks', async () => {
    const t = await thread('chat-a');
    const answer = await memd.threads.append.withResponse(
      t.thread_id,
      {
        messages: [
          say('Hello'),
          say(
            [
              { type: 'text', text: 'Hi! How can I help?' },
              { type: 'image', data: { url: 'https://x/y.png' } },
            ],
            'assistant',
          ),
        ],
      },
      { query: a },
    );
    expect(answer.status).toBe(201);
    const first = answer.data;
    expect(first.thread_id).toBe(t.thread_id);
    expect(first.new_message_count).toBe(2);
    expect(first.messages).toEqual([
      {
        message_id: expect.stringMatching(/^msg_[0-9a-f]{16}$/),
        id: first.messages[0]!.message_id,
        thread_id: t.thread_id,
        index: 0,
        message_index: 0,
        role: 'user',
        content: 'Hello',
        metadata: {},
        created_at: expect.any(String),
      },
      expect.objectContaining({
        index: 1,
        role: 'assistant',
        content: [
          { type: 'text', text: 'Hi! How can I help?' },
          { type: 'image', data: { url: 'https://x/y.png' } },
        ],
      }),
    ]);
    const second = await api.post(`/v1/chat/threads/${t.thread_id}/messages?workspace_id=chat-a`, {
      messages: [say('{"ok":true}', 'tool'), say('Be brief.', 'system')],
    });
    expect(second.body.messages.map((m: { index: number }) => m.index)).toEqual([2, 3]);
    expect((await memd.threads.get(t.thread_id, a)).message_count).toBe(4);
  });

  it('keeps indexes unique and increasing under 50 concurrent appends', async () => {
    const t = await thread('chat-a');
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, i) => append('chat-a', t.thread_id, [say(`m${i} first`), say(`m${i} second`)])),
    );
    for (const r of responses) {
      const [one, two] = r.messages as [(typeof r.messages)[number], (typeof r.messages)[number]];
      expect(two.index).toBe(one.index + 1);
      expect(two.content).toBe((one.content as string).replace('first', 'second'));
    }
    const listed = await memd.threads.messages(t.thread_id, { ...a, limit: 1000 });
    expect(listed.total_count).toBe(100);
    expect(listed.messages.map((m) => m.index)).toEqual(Array.from({ length: 100 }, (_, i) => i));
  });

  it('pages messages by after_index, order, limit and offset, and serves the full thread', async () => {
    const t = await thread('chat-a', { title: 'Paging' });
    await append(
      'chat-a',
      t.thread_id,
      Array.from({ length: 6 }, (_, i) => say(`message ${i}`)),
    );
    const indexes = (page: { messages: Array<{ index: number }> }) => page.messages.map((m) => m.index);
    const after = await memd.threads.messages(t.thread_id, { ...a, after_index: 2 });
    expect([indexes(after), after.total_count]).toEqual([[3, 4, 5], 3]);
    const desc = await memd.threads.messages(t.thread_id, { ...a, order: 'desc', limit: 2, offset: 1 });
    expect([indexes(desc), desc.total_count]).toEqual([[4, 3], 6]);
    const full = await memd.threads.full(t.thread_id, { ...a, limit: 2, order: 'desc' });
    expect(full.thread).toMatchObject({ thread_id: t.thread_id, title: 'Paging', message_count: 6 });
    expect([indexes(full), full.total_messages]).toEqual([[5, 4], 6]);
  });

  it('deletes a message without reusing its index, and a thread with its messages', async () => {
    const t = await thread('chat-a');
    const middle = (await append('chat-a', t.thread_id, [say('a'), say('b'), say('c')])).messages[1]!;
    expect((await memd.threads.deleteMessage.withResponse(t.thread_id, middle.message_id, a)).status).toBe(204);
    expect(await failureOf(memd.threads.deleteMessage(t.thread_id, middle.message_id, a))).toBeInstanceOf(
      NotFoundError,
    );
    expect((await append('chat-a', t.thread_id, [say('d')])).messages[0]!.index).toBe(3);
    expect((await memd.threads.messages(t.thread_id, a)).messages.map((m) => m.content)).toEqual(['a', 'c', 'd']);
    expect((await memd.threads.get(t.thread_id, a)).message_count).toBe(3);

    expect((await api.delete(`/v1/chat/threads/${t.thread_id}?workspace_id=chat-a`)).status).toBe(204);
    expect(await failureOf(memd.threads.get(t.thread_id, a))).toBeInstanceOf(NotFoundError);
    expect(await failureOf(memd.threads.messages(t.thread_id, a))).toBeInstanceOf(NotFoundError);
    expect(
      (
        await server.app.services.storage.threads.listMessages('chat-a', t.thread_id, {
          order: 'asc',
          limit: 10,
          offset: 0,
        })
      ).total,
    ).toBe(0);
    expect(await failureOf(memd.threads.delete(t.thread_id, a))).toBeInstanceOf(NotFoundError);
  });

  it('expires threads: 410 until the background cleanup removes them with their messages', async () => {
    expect(
      await failureOf(thread('chat-a', { expires_at: new Date(clock.now().getTime() - 1).toISOString() })),
    ).toBeInstanceOf(ValidationError);
    const t = await thread('chat-a', {
      expires_at: new Date(clock.now().getTime() + 60_000).toISOString(),
      title: 'Short-lived',
    });
    await append('chat-a', t.thread_id, [say('soon gone')]);
    clock.advance(61_000);
    expect(await failureOf(memd.threads.get(t.thread_id, a))).toBeInstanceOf(GoneError);
    expect(await failureOf(append('chat-a', t.thread_id, [say('too late')]))).toBeInstanceOf(GoneError);
    expect((await memd.threads.list({ ...a, limit: 200 })).threads.map((x) => x.thread_id)).not.toContain(t.thread_id);
    clock.advance(300_000);
    await server.drainTasks();
    expect(await failureOf(memd.threads.get(t.thread_id, a))).toBeInstanceOf(NotFoundError);
    expect(
      (
        await server.app.services.storage.threads.listMessages('chat-a', t.thread_id, {
          order: 'asc',
          limit: 10,
          offset: 0,
        })
      ).total,
    ).toBe(0);
  });

  it('keeps workspaces apart', async () => {
    const t = await thread('chat-a', { title: 'Private' });
    await append('chat-a', t.thread_id, [say('secret')]);
    const b = inWorkspace('chat-b');
    expect(await failureOf(memd.threads.get(t.thread_id, b))).toBeInstanceOf(NotFoundError);
    expect(await failureOf(append('chat-b', t.thread_id, [say('intrusion')]))).toBeInstanceOf(NotFoundError);
    expect(await failureOf(memd.threads.messages(t.thread_id, b))).toBeInstanceOf(NotFoundError);
    expect(await failureOf(memd.threads.decompose(t.thread_id, b))).toBeInstanceOf(NotFoundError);
    expect(await failureOf(memd.threads.delete(t.thread_id, b))).toBeInstanceOf(NotFoundError);
    expect((await memd.threads.list(b)).threads.map((x) => x.title)).not.toContain('Private');
    expect((await memd.threads.get(t.thread_id, a)).message_count).toBe(1);
    expect(await memd.threads.list(inWorkspace('no-such-ws'))).toEqual({ threads: [], total_count: 0 });
  });

  it('answers bad input with a 4xx and changes nothing', async () => {
    const t = await thread('chat-a');
    await append('chat-a', t.thread_id, [say('only one')]);
    const badAppends = [
      [],
      [{ role: 'robot', content: 'x' }],
      [say('')],
      [say([])],
      [{ role: 'user', content: [{ text: 'no type' }] }],
      [{ role: 'user' }],
      [{ ...say('x'), extra: true }],
      [{ role: 'user', content: 42 }],
    ];
    // Untyped: the client's types refuse most of these.
    const appendRaw = (messages: unknown[]) =>
      api.post(`/v1/threads/${t.thread_id}/messages?workspace_id=chat-a`, { messages });
    for (const messages of badAppends) expect((await appendRaw(messages)).status, JSON.stringify(messages)).toBe(422);
    expect((await api.post(`/v1/threads/${t.thread_id}/messages?workspace_id=chat-a`, {})).status).toBe(422);
    expect(await failureOf(append('chat-a', 'thread_missing', [say('x')]))).toBeInstanceOf(NotFoundError);
    const base = `/v1/threads/${t.thread_id}/messages?workspace_id=chat-a`;
    for (const query of ['limit=0', 'limit=1001', 'offset=-1', 'order=sideways', 'after_index=x'])
      expect((await api.get(`${base}&${query}`)).status, query).toBe(422);
    for (const query of ['limit=0', 'limit=201', 'offset=-1'])
      expect((await api.get(`/v1/threads?workspace_id=chat-a&${query}`)).status, query).toBe(422);
    for (const body of [{ thread_id: 'bad id!' }, { title: 5 }, { expires_at: 'tomorrow' }, { unknown: 1 }]) {
      expect((await api.post('/v1/threads?workspace_id=chat-a', body)).status, JSON.stringify(body)).toBe(422);
    }
    expect((await api.put(`/v1/threads/${t.thread_id}?workspace_id=chat-a`, { message_count: 9 })).status).toBe(422);
    expect(await memd.threads.get(t.thread_id, a)).toMatchObject({ message_count: 1, title: null });
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
    const first = await memd.threads.decompose(t.thread_id, a);
    expect(first).toEqual({
      thread_id: t.thread_id,
      workspace_id: 'chat-a',
      messages_processed: 5,
      memories_created: 2,
      from_index: 0,
      to_index: 4,
    });
    const memories = (await memd.memories.list({ ...a, subject_id: 'ana', limit: 100 })).memories;
    expect(memories.map((m) => m.content).sort()).toEqual([
      'I live in Lisbon and I work as a nurse.',
      'My favourite food is grilled sardines.',
    ]);
    const lisbon = memories.find((m) => m.content.includes('Lisbon'));
    expect(lisbon).toMatchObject({
      observer_id: 'agent-7',
      subject_id: 'ana',
      user_id: 'u-ana',
      metadata: { source: 'chat_history', thread_id: t.thread_id, message_range: [1, 1] },
    });
    expect(await memd.threads.get(t.thread_id, a)).toMatchObject({
      last_decomposed_index: 4,
      last_decomposed_at: clock.now().toISOString(),
    });

    const second = await api.post(`/v1/chat/threads/${t.thread_id}/decompose?workspace_id=chat-a`);
    expect(second.body).toMatchObject({ messages_processed: 0, memories_created: 0, from_index: null, to_index: null });

    await append('chat-a', t.thread_id, [say('I decided to learn Portuguese this year.'), say('ok')]);
    const third = await memd.threads.decompose(t.thread_id, a);
    expect(third).toMatchObject({ messages_processed: 2, memories_created: 1, from_index: 5, to_index: 6 });
    expect((await memd.memories.list({ ...a, subject_id: 'ana', limit: 100 })).total_count).toBe(3);
  });

  it('two decompositions at once: one processes the messages, the other finds nothing new', async () => {
    // A workspace of its own: the conversation's memories are not already there from the test above.
    const twice = { workspace_id: 'chat-twice' };
    const t = await thread(twice.workspace_id, { subject_id: 'cy' });
    await append(twice.workspace_id, t.thread_id, conversation);
    const run = () => memd.threads.decompose(t.thread_id, twice);
    const ranges = (await Promise.all([run(), run()])).map((r) => [
      r.messages_processed,
      r.memories_created,
      r.from_index,
      r.to_index,
    ]);
    expect(ranges).toContainEqual([5, 2, 0, 4]);
    expect(ranges).toContainEqual([0, 0, null, null]);
    expect((await memd.memories.list({ ...twice, subject_id: 'cy', limit: 100 })).total_count).toBe(2);
  });

  it('decomposes in the background once ten messages wait', async () => {
    const t = await thread('chat-a', { subject_id: 'bo' });
    await append(
      'chat-a',
      t.thread_id,
      Array.from({ length: 9 }, (_, i) => say(`I visited Porto on day ${i + 1} of the trip.`)),
    );
    await server.drainTasks();
    expect((await memd.threads.get(t.thread_id, a)).last_decomposed_index).toBe(-1);
    await append('chat-a', t.thread_id, [say('I always book the window seat on trains.')]);
    await server.drainTasks();
    expect((await memd.threads.get(t.thread_id, a)).last_decomposed_index).toBe(9);
    expect((await memd.memories.list({ ...a, subject_id: 'bo', limit: 100 })).memories.map((m) => m.content)).toContain(
      'I always book the window seat on trains.',
    );
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
    const llm = memdClient(llmServer.url);
    const t = (await llm.threads.create({ subject_id: 'ana' })).thread;
    await llm.threads.append(t.thread_id, {
      messages: Array.from({ length: 17 }, (_, i) => say(`message number ${i}`)),
    });
    const prompts: string[] = [];
    fake.script(
      (req) => {
        prompts.push(req.messages.at(-1)!.content);
        return JSON.stringify({
          memories: [{ content: 'Ana lives in Lisbon.', category: 'profile', importance: 0.9, ref: 3 }],
        });
      },
      (req) => {
        prompts.push(req.messages.at(-1)!.content);
        return JSON.stringify({
          memories: [{ content: 'Ana prefers tea.', category: 'preferences', importance: 0.7, ref: 'nonsense' }],
        });
      },
    );
    const result = await llm.threads.decompose(t.thread_id);
    expect(result).toMatchObject({ messages_processed: 17, memories_created: 2, from_index: 0, to_index: 16 });
    expect(prompts[0]).toContain('[NEW 14] user: message number 14');
    expect(prompts[0]).not.toContain('message number 15');
    expect(prompts[1]).toContain('[CONTEXT 10] user: message number 10');
    expect(prompts[1]).toContain('[NEW 16] user: message number 16');
    const memories = (await llm.memories.list({ subject_id: 'ana' })).memories;
    expect(memories.find((m) => m.content === 'Ana lives in Lisbon.')).toMatchObject({
      subtype: 'profile',
      importance: 0.9,
      metadata: { message_range: [3, 3], extraction_method: 'llm' },
    });
    expect(memories.find((m) => m.content === 'Ana prefers tea.')!.metadata.message_range).toEqual([15, 16]);
  });
});

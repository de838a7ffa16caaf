import { describe, expect, it } from 'vitest';
import { expectFields, MESSAGE_FIELDS, THREAD_FIELDS } from './fields.js';
import { useClientServer } from './server.js';

/** The chat-history calls of the SDK (v0.0.6), as it sends them: `workspace_id` in the query of every thread call. */
describe('SDK: chat threads and messages', () => {
  const t = useClientServer({ workspaceId: 'sdk-threads' });
  const ws = 'workspace_id=sdk-threads';

  it('createThread, getThread ({thread}), listThreads, appendMessages, getMessages, getThreadFull', async () => {
    // createThread({ title, userId, metadata })
    const created = await t.sdk.call({
      method: 'POST',
      path: '/v1/threads',
      body: { workspace_id: 'sdk-threads', user_id: 'ana', title: 'Onboarding', metadata: { channel: 'web' } },
    });
    expect(created.status, created.errorMessage).toBe(201);
    expectFields(created.body.thread, THREAD_FIELDS, 'thread');
    const id = created.body.thread.id as string;

    const got = await t.sdk.call({ method: 'GET', path: `/v1/threads/${id}?${ws}` });
    expect(got.status, got.errorMessage).toBe(200);
    expectFields(got.body.thread, THREAD_FIELDS, 'thread');
    expect(got.body.thread).toMatchObject({ id, title: 'Onboarding', user_id: 'ana' });

    const listed = await t.sdk.call({ method: 'GET', path: `/v1/threads?${ws}&user_id=ana&limit=10&offset=0` });
    expect(listed.body.threads.map((th: { id: string }) => th.id)).toEqual([id]);
    expect(listed.body.total_count).toBe(1);

    const appended = await t.sdk.call({
      method: 'POST',
      path: `/v1/threads/${id}/messages?${ws}`,
      body: {
        messages: [
          { role: 'user', content: 'How do I get VPN access?' },
          { role: 'assistant', content: [{ type: 'text', text: 'File an IT ticket.' }], metadata: { model: 'x' } },
        ],
      },
    });
    expect(appended.status, appended.errorMessage).toBe(201);
    expectFields(appended.body, ['messages', 'thread_id', 'new_message_count'], 'append result');
    for (const message of appended.body.messages) expectFields(message, MESSAGE_FIELDS, 'message');
    expect(appended.body.messages.map((m: { message_index: number }) => m.message_index)).toEqual([0, 1]);
    // Beside the spec's own names, which stay.
    for (const message of appended.body.messages)
      expect(message).toMatchObject({ message_id: message.id, index: message.message_index });
    expect(got.body.thread.thread_id).toBe(id);

    // getMessages(id, { limit, offset, afterIndex, order })
    const messages = await t.sdk.call({
      method: 'GET',
      path: `/v1/threads/${id}/messages?${ws}&limit=10&offset=0&after_index=0&order=asc`,
    });
    expect(messages.status, messages.errorMessage).toBe(200);
    expectFields(messages.body, ['messages', 'thread_id', 'total_count'], 'message list');
    expect(messages.body.messages.map((m: { id: string }) => m.id)).toEqual([appended.body.messages[1].id]);

    // getThreadFull(id, { limit, offset, order })
    const full = await t.sdk.call({ method: 'GET', path: `/v1/threads/${id}/full?${ws}&limit=50&offset=0&order=desc` });
    expectFields(full.body, ['thread', 'messages', 'total_messages'], 'thread with messages');
    expectFields(full.body.thread, THREAD_FIELDS, 'thread');
    expect(full.body.messages.map((m: { message_index: number }) => m.message_index)).toEqual([1, 0]);
  });
});

/** The chat tools of the MCP server (v0.0.6): `/v1/chat/threads…`, no workspace but X-Workspace-ID. */
describe('MCP server: chat thread tools', () => {
  const t = useClientServer({ workspaceId: '_default' });

  it('chat_thread_create, _append, _get (with paging parameters), _list', async () => {
    const created = await t.sdk.call({
      method: 'POST',
      path: '/v1/chat/threads',
      body: { thread_id: 'conv-42', user_id: 'ana', title: 'Support chat' },
    });
    expect(created.status, created.errorMessage).toBe(201);
    expect(created.body.thread).toMatchObject({ id: 'conv-42', thread_id: 'conv-42', workspace_id: '_default' });

    const appended = await t.sdk.call({
      method: 'POST',
      path: '/v1/chat/threads/conv-42/messages',
      body: { messages: [{ role: 'user', content: 'My laptop will not boot.' }] },
    });
    expect(appended.status, appended.errorMessage).toBe(201);

    // chat_thread_get sends the message paging options to the thread itself: they are ignored, not refused.
    const got = await t.sdk.call({ method: 'GET', path: '/v1/chat/threads/conv-42?limit=10&offset=0&order=asc' });
    expect(got.status, got.errorMessage).toBe(200);
    expect(got.body.thread).toMatchObject({ id: 'conv-42', message_count: 1 });

    const listed = await t.sdk.call({ method: 'GET', path: '/v1/chat/threads?user_id=ana&limit=20&offset=0' });
    expect(listed.body.threads.map((th: { id: string }) => th.id)).toEqual(['conv-42']);
  });
});

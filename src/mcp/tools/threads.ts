import { Type } from 'typebox';
import { AppendMessagesBody, CreateThreadBody, FullThreadQuery } from '../../http/schemas/thread.js';
import { appendedView, messageView, threadView } from '../../http/thread-views.js';
import { defineTool } from '../tool.js';
import { ThreadId, WorkspaceArg } from './arguments.js';

export const threadCreate = defineTool({
  name: 'thread_create',
  title: 'Create a chat thread',
  description:
    'Create a chat thread to record a conversation. observer_id (typically the agent) and subject_id (typically the user) are carried by the ' +
    'memories thread_decompose extracts from it.',
  input: Type.Object({ ...CreateThreadBody.properties, workspace_id: WorkspaceArg }, { additionalProperties: false }),
  effect: 'writes',
  async run(args, { services, scope }) {
    const { workspaceId } = await scope(args.workspace_id);
    return { thread: threadView(await services.threads.create({ ...args, workspace_id: workspaceId })) };
  },
});

export const threadAppend = defineTool({
  name: 'thread_append',
  title: 'Append to a chat thread',
  description: 'Append messages (role user, assistant, system or tool, and content) to a thread, in order.',
  input: Type.Object(
    { thread_id: ThreadId, ...AppendMessagesBody.properties, workspace_id: WorkspaceArg },
    { additionalProperties: false },
  ),
  effect: 'writes',
  async run({ thread_id, messages, workspace_id }, { services, object }) {
    const { workspaceId } = await object('thread', thread_id, workspace_id);
    return appendedView(thread_id, await services.threads.append(workspaceId, thread_id, messages));
  },
});

export const threadGet = defineTool({
  name: 'thread_get',
  title: 'Read a chat thread',
  description: 'A thread with a page of its messages (limit, offset, order asc or desc) and how many it has.',
  input: Type.Object(
    { thread_id: ThreadId, ...FullThreadQuery.properties, workspace_id: WorkspaceArg },
    { additionalProperties: false },
  ),
  effect: 'reads',
  async run({ thread_id, workspace_id, limit, offset, order }, { services, object }) {
    const { workspaceId } = await object('thread', thread_id, workspace_id);
    const { thread, messages, total } = await services.threads.messages(workspaceId, thread_id, {
      limit,
      offset,
      order,
    });
    return { thread: threadView(thread), messages: messages.map(messageView), total_messages: total };
  },
});

export const threadDecompose = defineTool({
  name: 'thread_decompose',
  title: 'Extract memories from a chat thread',
  description:
    'Extract long-term memories (facts, preferences, decisions, events) from the thread’s messages not processed yet. Safe to call again after appending.',
  input: Type.Object({ thread_id: ThreadId, workspace_id: WorkspaceArg }, { additionalProperties: false }),
  effect: 'writes',
  async run({ thread_id, workspace_id }, { services, object }) {
    const { workspaceId } = await object('thread', thread_id, workspace_id);
    return services.threads.decompose(workspaceId, thread_id);
  },
});

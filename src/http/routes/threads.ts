import { Type } from 'typebox';
import type { ChatMessage, ChatThread } from '../../storage/types.js';
import type { Services } from '../../services.js';
import { commonErrors, ErrorResponse } from '../schemas/common.js';
import {
  AppendMessagesBody,
  AppendMessagesResponse,
  CreateThreadBody,
  DecomposeResponse,
  FullThreadQuery,
  ListMessagesQuery,
  ListThreadsQuery,
  Message,
  MessageParams,
  Thread,
  ThreadParams,
  ThreadWorkspaceQuery,
  UpdateThreadBody,
} from '../schemas/thread.js';
import { resolveWorkspace } from '../request-context.js';
import type { App } from '../server.js';

const tags = ['chat threads'];

/** The reference's REST shape: `thread_id`, `message_id` and `index` instead of the record fields. */
const threadView = ({ id, ...rest }: ChatThread) => ({ thread_id: id, ...rest });
const messageView = (m: ChatMessage) => ({ message_id: m.id, thread_id: m.thread_id, index: m.message_index, role: m.role, content: m.content, metadata: m.metadata, created_at: m.created_at });

/**
 * Chat threads under /v1/threads, and the same routes under /v1/chat/threads (the path the ecosystem's MCP server
 * calls; hidden from the OpenAPI document to list each operation once).
 */
export function threadRoutes(app: App, services: Services): void {
  for (const base of ['/threads', '/chat/threads']) {
    const hide = base !== '/threads';
    const gone = { 410: ErrorResponse };

    app.post(
      base,
      { schema: { hide, tags, summary: 'Create a chat thread', querystring: ThreadWorkspaceQuery, body: CreateThreadBody, response: { 201: Type.Object({ thread: Thread }), 409: ErrorResponse, ...commonErrors } } },
      async (request, reply) => {
        const workspaceId = await resolveWorkspace(services, request, request.body.workspace_id ?? request.query.workspace_id);
        const thread = await services.threads.create({ ...request.body, workspace_id: workspaceId });
        return reply.status(201).send({ thread: threadView(thread) });
      },
    );

    app.get(
      base,
      {
        schema: {
          hide,
          tags,
          summary: 'List live threads, most recently active first',
          querystring: ListThreadsQuery,
          response: { 200: Type.Object({ threads: Type.Array(Thread), total_count: Type.Integer() }), ...commonErrors },
        },
      },
      async (request) => {
        const q = request.query;
        const workspaceId = await resolveWorkspace(services, request, q.workspace_id);
        const { threads, total } = await services.threads.list(workspaceId, { userId: q.user_id, limit: q.limit, offset: q.offset });
        return { threads: threads.map(threadView), total_count: total };
      },
    );

    app.get(
      `${base}/:thread_id`,
      { schema: { hide, tags, summary: 'Get a thread', params: ThreadParams, querystring: ThreadWorkspaceQuery, response: { 200: Thread, ...gone, ...commonErrors } } },
      async (request) => {
        const workspaceId = await resolveWorkspace(services, request, request.query.workspace_id);
        return threadView(await services.threads.get(workspaceId, request.params.thread_id));
      },
    );

    app.put(
      `${base}/:thread_id`,
      { schema: { hide, tags, summary: 'Change a thread’s title or metadata', params: ThreadParams, querystring: ThreadWorkspaceQuery, body: UpdateThreadBody, response: { 200: Thread, ...gone, ...commonErrors } } },
      async (request) => {
        const workspaceId = await resolveWorkspace(services, request, request.query.workspace_id);
        return threadView(await services.threads.update(workspaceId, request.params.thread_id, request.body));
      },
    );

    app.delete(
      `${base}/:thread_id`,
      { schema: { hide, tags, summary: 'Delete a thread and its messages (memories decomposed from it stay)', params: ThreadParams, querystring: ThreadWorkspaceQuery, response: { 204: Type.Null(), ...commonErrors } } },
      async (request, reply) => {
        const workspaceId = await resolveWorkspace(services, request, request.query.workspace_id);
        await services.threads.delete(workspaceId, request.params.thread_id);
        return reply.status(204).send(null);
      },
    );

    app.get(
      `${base}/:thread_id/full`,
      {
        schema: {
          hide,
          tags,
          summary: 'A thread with a page of its messages',
          params: ThreadParams,
          querystring: FullThreadQuery,
          response: { 200: Type.Object({ thread: Thread, messages: Type.Array(Message), total_messages: Type.Integer() }), ...gone, ...commonErrors },
        },
      },
      async (request) => {
        const q = request.query;
        const workspaceId = await resolveWorkspace(services, request, q.workspace_id);
        const { thread, messages, total } = await services.threads.messages(workspaceId, request.params.thread_id, { limit: q.limit, offset: q.offset, order: q.order });
        return { thread: threadView(thread), messages: messages.map(messageView), total_messages: total };
      },
    );

    app.post(
      `${base}/:thread_id/messages`,
      {
        schema: {
          hide,
          tags,
          summary: 'Append messages; they get the next indexes in order',
          params: ThreadParams,
          querystring: ThreadWorkspaceQuery,
          body: AppendMessagesBody,
          response: { 201: AppendMessagesResponse, ...gone, ...commonErrors },
        },
      },
      async (request, reply) => {
        const workspaceId = await resolveWorkspace(services, request, request.query.workspace_id);
        const { messages, messageCount } = await services.threads.append(workspaceId, request.params.thread_id, request.body.messages);
        return reply.status(201).send({ messages: messages.map(messageView), thread_id: request.params.thread_id, new_message_count: messageCount });
      },
    );

    app.get(
      `${base}/:thread_id/messages`,
      {
        schema: {
          hide,
          tags,
          summary: 'A page of a thread’s messages',
          params: ThreadParams,
          querystring: ListMessagesQuery,
          response: { 200: Type.Object({ messages: Type.Array(Message), thread_id: Type.String(), total_count: Type.Integer() }), ...gone, ...commonErrors },
        },
      },
      async (request) => {
        const q = request.query;
        const workspaceId = await resolveWorkspace(services, request, q.workspace_id);
        const { messages, total } = await services.threads.messages(workspaceId, request.params.thread_id, { limit: q.limit, offset: q.offset, order: q.order, afterIndex: q.after_index });
        return { messages: messages.map(messageView), thread_id: request.params.thread_id, total_count: total };
      },
    );

    app.delete(
      `${base}/:thread_id/messages/:message_id`,
      { schema: { hide, tags, summary: 'Delete one message (its index is not reused)', params: MessageParams, querystring: ThreadWorkspaceQuery, response: { 204: Type.Null(), ...gone, ...commonErrors } } },
      async (request, reply) => {
        const workspaceId = await resolveWorkspace(services, request, request.query.workspace_id);
        await services.threads.deleteMessage(workspaceId, request.params.thread_id, request.params.message_id);
        return reply.status(204).send(null);
      },
    );

    app.post(
      `${base}/:thread_id/decompose`,
      {
        schema: {
          hide,
          tags,
          summary: 'Extract memories from the messages not processed yet (observer/subject from the thread)',
          params: ThreadParams,
          querystring: ThreadWorkspaceQuery,
          response: { 200: DecomposeResponse, ...gone, ...commonErrors },
        },
      },
      async (request) => {
        const workspaceId = await resolveWorkspace(services, request, request.query.workspace_id);
        return services.threads.decompose(workspaceId, request.params.thread_id);
      },
    );
  }
}

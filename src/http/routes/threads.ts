import { Type } from 'typebox';
import type { FastifyRequest } from 'fastify';
import type { CoreServices } from '../../services.js';
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
import { objectAccess, scopedAccess } from '../request-context.js';
import type { App } from '../server.js';
import { appendedView, messageView, threadView } from '../thread-views.js';

const tags = ['chat threads'];

/**
 * Chat threads under /v1/threads, and the same routes under /v1/chat/threads (the path the ecosystem's MCP server
 * calls; hidden from the OpenAPI document to list each operation once).
 */
export function threadRoutes(app: App, services: CoreServices): void {
  const threads = services.threads;
  /** Routes under a thread id address the thread: the workspace is the thread's. */
  const workspaceOf = async (request: FastifyRequest, threadId: string) =>
    (await objectAccess(services, request, 'thread', threadId)).workspaceId;

  for (const base of ['/threads', '/chat/threads']) {
    const hide = base !== '/threads';
    const gone = { 410: ErrorResponse };

    app.post(
      base,
      {
        schema: {
          hide,
          tags,
          summary: 'Create a chat thread',
          querystring: ThreadWorkspaceQuery,
          body: CreateThreadBody,
          response: { 201: Type.Object({ thread: Thread }), 409: ErrorResponse, ...commonErrors },
        },
      },
      async (request, reply) => {
        const access = await scopedAccess(services, request);
        const thread = await threads.create({ ...request.body, workspace_id: access.workspaceId });
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
        const access = await scopedAccess(services, request);
        const { threads: found, total } = await threads.list(access.workspaceId, {
          userId: q.user_id,
          limit: q.limit,
          offset: q.offset,
        });
        return { threads: found.map(threadView), total_count: total };
      },
    );

    app.get(
      `${base}/:thread_id`,
      {
        schema: {
          hide,
          tags,
          summary: 'Get a thread (its fields, and the same under `thread`)',
          params: ThreadParams,
          querystring: ThreadWorkspaceQuery,
          response: { 200: Type.Intersect([Thread, Type.Object({ thread: Thread })]), ...gone, ...commonErrors },
        },
      },
      async (request) => {
        const view = threadView(
          await threads.get(await workspaceOf(request, request.params.thread_id), request.params.thread_id),
        );
        return { ...view, thread: view };
      },
    );

    app.put(
      `${base}/:thread_id`,
      {
        schema: {
          hide,
          tags,
          summary: 'Change a thread’s title or metadata',
          params: ThreadParams,
          querystring: ThreadWorkspaceQuery,
          body: UpdateThreadBody,
          response: { 200: Thread, ...gone, ...commonErrors },
        },
      },
      async (request) => {
        const workspaceId = await workspaceOf(request, request.params.thread_id);
        return threadView(await threads.update(workspaceId, request.params.thread_id, request.body));
      },
    );

    app.delete(
      `${base}/:thread_id`,
      {
        schema: {
          hide,
          tags,
          summary: 'Delete a thread and its messages (memories decomposed from it stay)',
          params: ThreadParams,
          querystring: ThreadWorkspaceQuery,
          response: { 204: Type.Null(), ...commonErrors },
        },
      },
      async (request, reply) => {
        const workspaceId = await workspaceOf(request, request.params.thread_id);
        await threads.delete(workspaceId, request.params.thread_id);
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
          response: {
            200: Type.Object({ thread: Thread, messages: Type.Array(Message), total_messages: Type.Integer() }),
            ...gone,
            ...commonErrors,
          },
        },
      },
      async (request) => {
        const q = request.query;
        const workspaceId = await workspaceOf(request, request.params.thread_id);
        const { thread, messages, total } = await threads.messages(workspaceId, request.params.thread_id, {
          limit: q.limit,
          offset: q.offset,
          order: q.order,
        });
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
        const workspaceId = await workspaceOf(request, request.params.thread_id);
        const appended = await threads.append(workspaceId, request.params.thread_id, request.body.messages);
        return reply.status(201).send(appendedView(request.params.thread_id, appended));
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
          response: {
            200: Type.Object({ messages: Type.Array(Message), thread_id: Type.String(), total_count: Type.Integer() }),
            ...gone,
            ...commonErrors,
          },
        },
      },
      async (request) => {
        const q = request.query;
        const workspaceId = await workspaceOf(request, request.params.thread_id);
        const { messages, total } = await threads.messages(workspaceId, request.params.thread_id, {
          limit: q.limit,
          offset: q.offset,
          order: q.order,
          afterIndex: q.after_index,
        });
        return { messages: messages.map(messageView), thread_id: request.params.thread_id, total_count: total };
      },
    );

    app.delete(
      `${base}/:thread_id/messages/:message_id`,
      {
        schema: {
          hide,
          tags,
          summary: 'Delete one message (its index is not reused)',
          params: MessageParams,
          querystring: ThreadWorkspaceQuery,
          response: { 204: Type.Null(), ...gone, ...commonErrors },
        },
      },
      async (request, reply) => {
        const workspaceId = await workspaceOf(request, request.params.thread_id);
        await threads.deleteMessage(workspaceId, request.params.thread_id, request.params.message_id);
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
        const workspaceId = await workspaceOf(request, request.params.thread_id);
        return threads.decompose(workspaceId, request.params.thread_id);
      },
    );
  }
}

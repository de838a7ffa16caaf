import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { MemoryDraft } from '../../core/memories/records.js';
import type { MemoryUpdate } from '../../core/memories/service.js';
import type { MemoryFilter, MemoryStatus, Session } from '../../storage/types.js';
import type { Services } from '../../services.js';
import { commonErrors, IdParams } from '../schemas/common.js';
import { BatchBody, BatchResponse } from '../schemas/batch.js';
import {
  CreateMemoryBody,
  DecayBody,
  DeleteMemoryQuery,
  ListMemoriesQuery,
  MemoryEnvelope,
  MemoryListResponse,
  UpdateMemoryBody,
  WriteMemoryResponse,
} from '../schemas/memory.js';
import { resolveScope, resolveWorkspace } from '../request-context.js';
import type { App } from '../server.js';
import { runBatch } from './memory-batch.js';

const MemoryParams = IdParams('memory_id', 'memory id (mem_…)');
const WorkspaceOnlyQuery = Type.Object({ workspace_id: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })) }, { additionalProperties: false });
const tags = ['memories'];

/** A write made with X-Session-ID belongs to that session and inherits its context and user. */
export function withSessionDefaults(draft: MemoryDraft, session: Session | null): MemoryDraft {
  if (!session) return draft;
  return {
    ...draft,
    session_id: draft.session_id ?? session.id,
    context_id: draft.context_id ?? session.context_id,
    user_id: draft.user_id ?? session.user_id ?? undefined,
  };
}

const STATUSES: Record<string, MemoryStatus[]> = { active: ['active'], archived: ['archived'], deleted: ['deleted'], all: ['active', 'archived', 'deleted'] };

export function memoryRoutes(app: App, services: Services): void {
  const writeScope = async (request: FastifyRequest, workspaceId: string | undefined) => {
    const scope = await resolveScope(services, request, workspaceId);
    // Writing through a session is activity in it: its sliding expiry moves (reference behaviour).
    if (scope.session) await services.sessions.touch(scope.session.id);
    return { scope, write: await services.workspaces.writeScope(scope.workspaceId) };
  };

  app.post(
    '/memories',
    { schema: { tags, summary: 'Remember something (write pipeline: hash, embed, duplicate check, store)', body: CreateMemoryBody, response: { 201: WriteMemoryResponse, ...commonErrors } } },
    async (request, reply) => {
      const { workspace_id, ...draft } = request.body;
      const { scope, write } = await writeScope(request, workspace_id);
      const result = await services.memories.create(write, withSessionDefaults(draft, scope.session));
      return reply.status(201).send(result);
    },
  );

  app.get(
    '/memories',
    { schema: { tags, summary: 'List a workspace’s memories, newest first, with a cursor', querystring: ListMemoriesQuery, response: { 200: MemoryListResponse, ...commonErrors } } },
    async (request) => {
      const q = request.query;
      const workspaceId = await resolveWorkspace(services, request, q.workspace_id);
      await services.workspaces.get(workspaceId);
      const filter: MemoryFilter = {
        statuses: STATUSES[q.status]!,
        ...(q.type && { types: q.type }),
        ...(q.subtype && { subtypes: q.subtype }),
        ...(q.tags && { tags: q.tags }),
        ...(q.context_id && { contextId: q.context_id }),
        ...(q.user_id && { userId: q.user_id }),
        ...(q.subject_id && { subjectId: q.subject_id }),
        ...(q.observer_id && { observerId: q.observer_id }),
        ...(q.session_id && { sessionId: q.session_id }),
        ...(q.created_after && { createdAfter: q.created_after }),
        ...(q.created_before && { createdBefore: q.created_before }),
      };
      const [page, total] = await Promise.all([
        services.memories.list(workspaceId, filter, { limit: q.limit, cursor: q.cursor }),
        services.storage.memories.count(workspaceId, filter),
      ]);
      return { memories: page.items, next_cursor: page.nextCursor, total_count: total };
    },
  );

  app.get(
    '/memories/:memory_id',
    { schema: { tags, summary: 'Get one memory', params: MemoryParams, querystring: WorkspaceOnlyQuery, response: { 200: MemoryEnvelope, ...commonErrors } } },
    async (request) => {
      const workspaceId = await resolveWorkspace(services, request, request.query.workspace_id);
      return { memory: await services.memories.get(workspaceId, request.params.memory_id) };
    },
  );

  app.put(
    '/memories/:memory_id',
    { schema: { tags, summary: 'Change a memory; only the fields given change', params: MemoryParams, body: UpdateMemoryBody, response: { 200: MemoryEnvelope, ...commonErrors } } },
    async (request) => {
      const { workspace_id, ...change } = request.body;
      const workspaceId = await resolveWorkspace(services, request, workspace_id);
      return { memory: await services.memories.update(workspaceId, request.params.memory_id, change as MemoryUpdate) };
    },
  );

  app.delete(
    '/memories/:memory_id',
    { schema: { tags, summary: 'Delete a memory: soft (status deleted, record kept) or, with hard=true, for good', params: MemoryParams, querystring: DeleteMemoryQuery, response: { 204: Type.Null(), ...commonErrors } } },
    async (request, reply) => {
      const workspaceId = await resolveWorkspace(services, request, request.query.workspace_id);
      await services.memories.delete(workspaceId, request.params.memory_id, request.query.hard);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/memories/:memory_id/decay',
    { schema: { tags, summary: 'Lower a memory’s importance by decay_rate (pinned memories are exempt)', params: MemoryParams, body: Type.Optional(DecayBody), response: { 200: MemoryEnvelope, ...commonErrors } } },
    async (request) => {
      const body = request.body ?? {};
      const workspaceId = await resolveWorkspace(services, request, body.workspace_id);
      return { memory: await services.memories.decay(workspaceId, request.params.memory_id, body.decay_rate ?? 0.1) };
    },
  );

  app.post(
    '/memories/batch',
    { schema: { tags, summary: 'Create, update and delete many memories; each operation succeeds or fails on its own', body: BatchBody, response: { 200: BatchResponse, ...commonErrors } } },
    async (request) => {
      const { scope, write } = await writeScope(request, request.body.workspace_id);
      return runBatch(services, write, scope.session, request.body.operations);
    },
  );
}

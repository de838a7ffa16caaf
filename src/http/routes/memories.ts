import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { MemoryUpdate } from '../../core/memories/service.js';
import type { CoreServices } from '../../services.js';
import { commonErrors, IdParams, WorkspaceQuery } from '../schemas/common.js';
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
import { objectAccess, scopedAccess } from '../request-context.js';
import type { App } from '../server.js';
import { parseBatch } from './memory-batch.js';

const MemoryParams = IdParams('memory_id', 'memory id (mem_…)');
const tags = ['memories'];

export function memoryRoutes(app: App, services: CoreServices): void {
  const memories = services.memories;
  const memoryAccess = (request: FastifyRequest, id: string) => objectAccess(services, request, 'memory', id);

  app.post(
    '/memories',
    {
      schema: {
        tags,
        summary: 'Remember something (write pipeline: hash, embed, duplicate check, store)',
        body: CreateMemoryBody,
        response: { 201: WriteMemoryResponse, ...commonErrors },
      },
    },
    async (request, reply) => {
      const { workspace_id: _named, ...draft } = request.body;
      return reply.status(201).send(await memories.remember(await scopedAccess(services, request), draft));
    },
  );

  app.get(
    '/memories',
    {
      schema: {
        tags,
        summary: 'List a workspace’s memories, newest first, with a cursor',
        querystring: ListMemoriesQuery,
        response: { 200: MemoryListResponse, ...commonErrors },
      },
    },
    async (request) => {
      const q = request.query;
      const access = await scopedAccess(services, request);
      const listing = await memories.list(
        access.workspaceId,
        q.status,
        {
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
        },
        { limit: q.limit, cursor: q.cursor },
      );
      return { memories: listing.memories, next_cursor: listing.nextCursor, total_count: listing.total };
    },
  );

  app.get(
    '/memories/:memory_id',
    {
      schema: {
        tags,
        summary: 'Get one memory',
        params: MemoryParams,
        querystring: WorkspaceQuery,
        response: { 200: MemoryEnvelope, ...commonErrors },
      },
    },
    async (request) => ({
      memory: await memories.get(
        (await memoryAccess(request, request.params.memory_id)).workspaceId,
        request.params.memory_id,
      ),
    }),
  );

  app.put(
    '/memories/:memory_id',
    {
      schema: {
        tags,
        summary: 'Change a memory; only the fields given change',
        params: MemoryParams,
        querystring: WorkspaceQuery,
        body: UpdateMemoryBody,
        response: { 200: MemoryEnvelope, ...commonErrors },
      },
    },
    async (request) => {
      const { workspace_id: _named, ...change } = request.body;
      const access = await memoryAccess(request, request.params.memory_id);
      return { memory: await memories.update(access.workspaceId, request.params.memory_id, change as MemoryUpdate) };
    },
  );

  app.delete(
    '/memories/:memory_id',
    {
      schema: {
        tags,
        summary: 'Delete a memory: soft (status deleted, record kept) or, with hard=true, for good',
        params: MemoryParams,
        querystring: DeleteMemoryQuery,
        response: { 204: Type.Null(), ...commonErrors },
      },
    },
    async (request, reply) => {
      await memories.delete(
        (await memoryAccess(request, request.params.memory_id)).workspaceId,
        request.params.memory_id,
        request.query.hard,
      );
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/memories/:memory_id/decay',
    {
      schema: {
        tags,
        summary: 'Lower a memory’s importance by decay_rate (pinned memories are exempt)',
        params: MemoryParams,
        querystring: WorkspaceQuery,
        body: Type.Optional(DecayBody),
        response: { 200: MemoryEnvelope, ...commonErrors },
      },
    },
    async (request) => {
      const access = await memoryAccess(request, request.params.memory_id);
      return { memory: await memories.decay(access.workspaceId, request.params.memory_id, request.body?.decay_rate) };
    },
  );

  app.post(
    '/memories/batch',
    {
      schema: {
        tags,
        summary: 'Create, update and delete many memories; each operation succeeds or fails on its own',
        body: BatchBody,
        response: { 200: BatchResponse, ...commonErrors },
      },
    },
    async (request) => memories.batch(await scopedAccess(services, request), parseBatch(request.body.operations)),
  );
}

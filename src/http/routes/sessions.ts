import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { CoreServices } from '../../services.js';
import { commonErrors, ErrorResponse, Identifier, Nullable } from '../schemas/common.js';
import {
  Briefing,
  BriefingQuery,
  CommitBody,
  CommitResponse,
  CreateSessionBody,
  Session as SessionSchema,
  SessionParams,
  SessionSummary,
  toBriefingOptions,
  toCommitOptions,
  toSessionStart,
  TtlSeconds,
  WorkingMemoryBody,
  WorkingMemoryEntry,
} from '../schemas/session.js';
import { objectAccess, scopedAccess } from '../request-context.js';
import type { App } from '../server.js';

const tags = ['sessions'];

export function sessionRoutes(app: App, services: CoreServices): void {
  const sessions = services.sessions;
  /** Every route under /sessions/{id} addresses the session by id: the workspace is the session's. */
  const sessionAccess = (request: FastifyRequest, id: string) => objectAccess(services, request, 'session', id);

  app.post(
    '/sessions',
    {
      schema: {
        tags,
        summary:
          'Start a session (creates its workspace and context when absent), with a briefing of the workspace on request',
        body: CreateSessionBody,
        response: {
          201: Type.Object({ session: SessionSchema, briefing: Nullable(Briefing) }),
          409: ErrorResponse,
          ...commonErrors,
        },
      },
    },
    async (request, reply) => {
      const { input, briefing } = toSessionStart(request.body);
      return reply.status(201).send(await sessions.start(await scopedAccess(services, request), input, briefing));
    },
  );

  // Registered before /sessions/:session_id; the router prefers the static path anyway.
  app.get(
    '/sessions/briefing',
    {
      schema: {
        tags,
        summary: 'What happened in the workspace lately: memories, sessions, chat threads, contradictions',
        querystring: BriefingQuery,
        response: { 200: Type.Object({ briefing: Briefing }), ...commonErrors },
      },
    },
    async (request) => {
      return {
        briefing: await sessions.briefing(await scopedAccess(services, request), toBriefingOptions(request.query)),
      };
    },
  );

  app.post(
    '/sessions/:session_id/commit',
    {
      schema: {
        tags,
        summary:
          'Store the working-memory entries above the thresholds as long-term memories (scored, categorised, deduplicated)',
        params: SessionParams,
        body: Type.Optional(CommitBody),
        response: { 200: CommitResponse, 410: ErrorResponse, ...commonErrors },
      },
    },
    async (request) => {
      const id = request.params.session_id;
      return sessions.commitOwned(await sessionAccess(request, id), id, toCommitOptions(request.body ?? {}));
    },
  );

  app.get(
    '/sessions',
    {
      schema: {
        tags,
        summary: 'List sessions (expired ones only with include_expired)',
        querystring: Type.Object(
          {
            workspace_id: Type.Optional(Identifier('workspace')),
            context_id: Type.Optional(Type.String({ minLength: 1 })),
            include_expired: Type.Boolean({ default: false }),
          },
          { additionalProperties: false },
        ),
        response: {
          200: Type.Object({ sessions: Type.Array(SessionSummary), total_count: Type.Integer() }),
          ...commonErrors,
        },
      },
    },
    async (request) => {
      const access = await scopedAccess(services, request);
      const found = await sessions.list({
        workspaceId: access.workspaceId,
        contextId: request.query.context_id,
        includeExpired: request.query.include_expired,
      });
      return { sessions: found, total_count: found.length };
    },
  );

  app.get(
    '/sessions/:session_id',
    {
      schema: {
        tags,
        summary: 'Get a live session with its working memory',
        params: SessionParams,
        response: { 200: Type.Object({ session: SessionSchema }), 410: ErrorResponse, ...commonErrors },
      },
    },
    async (request) => ({
      session: await sessions.viewOwned(
        await sessionAccess(request, request.params.session_id),
        request.params.session_id,
      ),
    }),
  );

  app.delete(
    '/sessions/:session_id',
    {
      schema: {
        tags,
        summary: 'End a session (its working memory goes; committed memories stay)',
        params: SessionParams,
        response: { 204: Type.Null(), ...commonErrors },
      },
    },
    async (request, reply) => {
      await sessions.end(await sessionAccess(request, request.params.session_id), request.params.session_id);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/sessions/:session_id/memory',
    {
      schema: {
        tags,
        summary: 'Set a working-memory entry',
        params: SessionParams,
        body: WorkingMemoryBody,
        response: { 201: WorkingMemoryEntry, 410: ErrorResponse, ...commonErrors },
      },
    },
    async (request, reply) => {
      const id = request.params.session_id;
      const { key, value, ttl_seconds } = request.body;
      return reply
        .status(201)
        .send(await sessions.putOwnedEntry(await sessionAccess(request, id), id, key, value, ttl_seconds ?? null));
    },
  );

  app.get(
    '/sessions/:session_id/memory',
    {
      schema: {
        tags,
        summary: 'Working memory: every live entry, or the one `key`',
        params: SessionParams,
        querystring: Type.Object(
          { key: Type.Optional(Type.String({ minLength: 1 })) },
          { additionalProperties: false },
        ),
        response: { 200: Type.Record(Type.String(), Type.Unknown()), 410: ErrorResponse, ...commonErrors },
      },
    },
    async (request) => {
      const id = request.params.session_id;
      return sessions.workingMemory(await sessionAccess(request, id), id, request.query.key);
    },
  );

  app.post(
    '/sessions/:session_id/touch',
    {
      schema: {
        tags,
        summary: 'Extend a session: it now expires extend_seconds (default: its TTL) from now',
        params: SessionParams,
        querystring: Type.Object(
          { extend_seconds: Type.Optional(TtlSeconds('seconds from now')) },
          { additionalProperties: false },
        ),
        body: Type.Optional(
          Type.Object(
            { ttl_seconds: Type.Optional(TtlSeconds('seconds from now (client library form)')) },
            { additionalProperties: false },
          ),
        ),
        response: {
          200: Type.Object({ expires_at: Type.String(), session: SessionSchema }),
          410: ErrorResponse,
          ...commonErrors,
        },
      },
    },
    async (request) => {
      const id = request.params.session_id;
      const session = await sessions.touchOwned(
        await sessionAccess(request, id),
        id,
        request.query.extend_seconds ?? request.body?.ttl_seconds,
      );
      return { expires_at: session.expires_at, session };
    },
  );
}

import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { authorizeWorkspace } from '../../core/auth/api-keys.js';
import { notFound } from '../../errors.js';
import type { Session } from '../../storage/types.js';
import type { Services } from '../../services.js';
import { DEFAULT_BRIEFING_OPTIONS, SESSION_BRIEFING_LOOKBACK_HOURS } from '../../core/sessions/briefing.js';
import { DEFAULT_COMMIT_OPTIONS } from '../../core/sessions/commit.js';
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
  TtlSeconds,
  WorkingMemoryBody,
  WorkingMemoryEntry,
} from '../schemas/session.js';
import { resolveWorkspace } from '../request-context.js';
import type { App } from '../server.js';

const tags = ['sessions'];

export function sessionRoutes(app: App, services: Services): void {
  /** A session by path id, visible only to callers allowed into its workspace. */
  const ownedSession = async (request: FastifyRequest, id: string): Promise<Session> => {
    const session = await services.sessions.get(id);
    authorizeWorkspace(request.principal, session.workspace_id);
    return session;
  };

  app.post(
    '/sessions',
    {
      schema: {
        tags,
        summary: 'Start a session (creates its workspace and context when absent), with a briefing of the workspace on request',
        body: CreateSessionBody,
        response: { 201: Type.Object({ session: SessionSchema, briefing: Nullable(Briefing) }), 409: ErrorResponse, ...commonErrors },
      },
    },
    async (request, reply) => {
      const { briefing, briefing_options: options, ...input } = request.body;
      const workspaceId = await resolveWorkspace(services, request, input.workspace_id);
      const briefingOptions = briefing
        ? {
            ...DEFAULT_BRIEFING_OPTIONS,
            lookbackMinutes: Math.round((options?.lookback_hours ?? SESSION_BRIEFING_LOOKBACK_HOURS) * 60),
            ...(options?.detail_level && { detailLevel: options.detail_level }),
            ...(options?.limit && { limit: options.limit }),
          }
        : null;
      return reply.status(201).send(await services.sessions.start({ ...input, workspace_id: workspaceId }, briefingOptions));
    },
  );

  // Registered before /sessions/:session_id; the router prefers the static path anyway.
  app.get(
    '/sessions/briefing',
    { schema: { tags, summary: 'What happened in the workspace lately: memories, sessions, chat threads, contradictions', querystring: BriefingQuery, response: { 200: Type.Object({ briefing: Briefing }), ...commonErrors } } },
    async (request) => {
      const q = request.query;
      const workspaceId = await resolveWorkspace(services, request, q.workspace_id);
      const briefing = await services.briefings.build(workspaceId, {
        lookbackMinutes: q.lookback_minutes,
        detailLevel: q.detail_level,
        limit: q.limit,
        includeMemories: q.include_memories,
        includeContradictions: q.include_contradictions,
      });
      return { briefing };
    },
  );

  app.post(
    '/sessions/:session_id/commit',
    {
      schema: {
        tags,
        summary: 'Store the working-memory entries above the thresholds as long-term memories (scored, categorised, deduplicated)',
        params: SessionParams,
        body: Type.Optional(CommitBody),
        response: { 200: CommitResponse, 410: ErrorResponse, ...commonErrors },
      },
    },
    async (request) => {
      await ownedSession(request, request.params.session_id);
      const body = request.body ?? {};
      return services.sessions.commit(request.params.session_id, {
        minImportance: body.min_importance ?? DEFAULT_COMMIT_OPTIONS.minImportance,
        deduplicate: body.deduplicate ?? DEFAULT_COMMIT_OPTIONS.deduplicate,
        categories: body.categories ?? DEFAULT_COMMIT_OPTIONS.categories,
        maxMemories: body.max_memories ?? DEFAULT_COMMIT_OPTIONS.maxMemories,
      });
    },
  );

  app.get(
    '/sessions',
    {
      schema: {
        tags,
        summary: 'List sessions (expired ones only with include_expired)',
        querystring: Type.Object(
          { workspace_id: Type.Optional(Identifier('workspace')), context_id: Type.Optional(Type.String({ minLength: 1 })), include_expired: Type.Boolean({ default: false }) },
          { additionalProperties: false },
        ),
        response: { 200: Type.Object({ sessions: Type.Array(SessionSummary), total_count: Type.Integer() }), ...commonErrors },
      },
    },
    async (request) => {
      const workspaceId = await resolveWorkspace(services, request, request.query.workspace_id);
      const sessions = await services.sessions.list({ workspaceId, contextId: request.query.context_id, includeExpired: request.query.include_expired });
      return { sessions, total_count: sessions.length };
    },
  );

  app.get(
    '/sessions/:session_id',
    { schema: { tags, summary: 'Get a live session with its working memory', params: SessionParams, response: { 200: Type.Object({ session: SessionSchema }), 410: ErrorResponse, ...commonErrors } } },
    async (request) => ({ session: await services.sessions.view(await ownedSession(request, request.params.session_id)) }),
  );

  app.delete(
    '/sessions/:session_id',
    { schema: { tags, summary: 'End a session (its working memory goes; committed memories stay)', params: SessionParams, response: { 204: Type.Null(), ...commonErrors } } },
    async (request, reply) => {
      const session = await services.storage.sessions.get(request.params.session_id);
      if (session) authorizeWorkspace(request.principal, session.workspace_id);
      await services.sessions.delete(request.params.session_id);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/sessions/:session_id/memory',
    { schema: { tags, summary: 'Set a working-memory entry', params: SessionParams, body: WorkingMemoryBody, response: { 201: WorkingMemoryEntry, 410: ErrorResponse, ...commonErrors } } },
    async (request, reply) => {
      await ownedSession(request, request.params.session_id);
      const { key, value, ttl_seconds } = request.body;
      return reply.status(201).send(await services.sessions.putEntry(request.params.session_id, key, value, ttl_seconds ?? null));
    },
  );

  app.get(
    '/sessions/:session_id/memory',
    {
      schema: {
        tags,
        summary: 'Working memory: every live entry, or the one `key`',
        params: SessionParams,
        querystring: Type.Object({ key: Type.Optional(Type.String({ minLength: 1 })) }, { additionalProperties: false }),
        response: { 200: Type.Record(Type.String(), Type.Unknown()), 410: ErrorResponse, ...commonErrors },
      },
    },
    async (request) => {
      await ownedSession(request, request.params.session_id);
      const entries = await services.sessions.entries(request.params.session_id);
      const wanted = request.query.key;
      if (wanted !== undefined && !entries.some((e) => e.key === wanted)) {
        throw notFound('working-memory entry', wanted);
      }
      return Object.fromEntries(entries.filter((e) => wanted === undefined || e.key === wanted).map((e) => [e.key, e.value]));
    },
  );

  app.post(
    '/sessions/:session_id/touch',
    {
      schema: {
        tags,
        summary: 'Extend a session: it now expires extend_seconds (default: its TTL) from now',
        params: SessionParams,
        querystring: Type.Object({ extend_seconds: Type.Optional(TtlSeconds('seconds from now')) }, { additionalProperties: false }),
        body: Type.Optional(Type.Object({ ttl_seconds: Type.Optional(TtlSeconds('seconds from now (client library form)')) }, { additionalProperties: false })),
        response: { 200: Type.Object({ expires_at: Type.String(), session: SessionSchema }), 410: ErrorResponse, ...commonErrors },
      },
    },
    async (request) => {
      await ownedSession(request, request.params.session_id);
      const seconds = request.query.extend_seconds ?? request.body?.ttl_seconds;
      const session = await services.sessions.touch(request.params.session_id, seconds);
      return { expires_at: session.expires_at, session: await services.sessions.view(session) };
    },
  );
}

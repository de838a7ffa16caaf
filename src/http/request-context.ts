import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Access, LocatableKind, SessionAccess, WorkspaceHints } from '../core/access/access.js';
import type { Principal } from '../core/access/principal.js';
import { AppError } from '../errors.js';
import type { CoreServices } from '../services.js';

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal;
    /** The Access of `scopedAccess` when resolving it created the workspace: abandoned if the request fails. */
    creatingAccess?: Access;
  }
}

/** A header's first value, trimmed; undefined when absent or blank. */
export const header = (request: FastifyRequest, name: string): string | undefined => {
  const value = request.headers[name];
  const first = Array.isArray(value) ? value[0] : value;
  return first?.trim() || undefined;
};

const field = (value: unknown): string | undefined => {
  const id = (value as { workspace_id?: unknown } | null | undefined)?.workspace_id;
  return typeof id === 'string' ? id : undefined;
};

/**
 * Where the request names its workspace: `workspace_id` of the body and of the query (each only where the route's
 * schema declares and has validated it), X-Workspace-ID and X-Session-ID. `body` overrides the body's field for
 * routes that read it elsewhere (a multipart form).
 */
function hintsOf(request: FastifyRequest, body?: string): WorkspaceHints {
  return {
    body: body ?? field(request.body),
    query: field(request.query),
    header: header(request, 'x-workspace-id'),
    sessionId: header(request, 'x-session-id'),
  };
}

/** The caller's Access for a call the workspace scopes (see AccessResolver.scope). */
export async function scopedAccess(services: CoreServices, request: FastifyRequest, body?: string): Promise<Access> {
  const access = await services.access.scope(request.principal, hintsOf(request, body));
  if (access.createdAt !== undefined) request.creatingAccess = access;
  return access;
}

/**
 * A request that fails leaves no workspace its resolution created (AccessResolver.abandon): an onError hook, run
 * before the error is answered, so that the client never sees the workspace.
 */
export function abandonCreatedWorkspaces(app: FastifyInstance, services: CoreServices): void {
  app.addHook('onError', async (request) => {
    if (!request.creatingAccess) return;
    // The error is what the client must hear: a workspace that cannot be removed stays, as it did before.
    await services.access
      .abandon(request.creatingAccess)
      .catch((err: unknown) => request.log.warn({ err }, 'the workspace this failed request created was kept'));
  });
}

/** The caller's Access for a call that removes what a workspace holds, which it never creates (see AccessResolver.existing). */
export function existingAccess(services: CoreServices, request: FastifyRequest, body?: string): Promise<Access> {
  return services.access.existing(request.principal, hintsOf(request, body));
}

/** The caller's Access for a call addressing one record by its id (see AccessResolver.forObject). */
export function objectAccess(
  services: CoreServices,
  request: FastifyRequest,
  kind: LocatableKind,
  id: string,
): Promise<Access> {
  return services.access.forObject(request.principal, hintsOf(request), { kind, id });
}

/**
 * The caller's Access through the live session named by X-Session-ID, for routes that act on the session's own
 * state (the context environment): 400 without the header, 404 for an unknown session, 410 for an expired one, 403
 * when the caller may not enter its workspace. Other workspace hints do not apply.
 */
export function sessionAccess(services: CoreServices, request: FastifyRequest): Promise<SessionAccess> {
  const sessionId = header(request, 'x-session-id');
  if (!sessionId)
    throw new AppError(
      'bad_request',
      'this route needs an X-Session-ID header naming a live session (POST /v1/sessions creates one)',
    );
  return services.access.ofSession(request.principal, sessionId);
}

/** Bearer token from `Authorization: Bearer …`, or the `X-API-Key` header some clients send. */
export function presentedKey(request: FastifyRequest): string | undefined {
  const authorization = header(request, 'authorization');
  const bearer = authorization?.match(/^Bearer\s+(.+)$/i)?.[1]?.trim();
  return bearer ?? header(request, 'x-api-key');
}

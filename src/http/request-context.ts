import type { FastifyRequest } from 'fastify';
import { authorizeWorkspace, defaultWorkspaceOf, type Principal } from '../core/auth/api-keys.js';
import type { RegistryCaller } from '../core/registries/scopes.js';
import { DEFAULT_WORKSPACE } from '../core/workspaces/service.js';
import { AppError } from '../errors.js';
import type { Session } from '../storage/types.js';
import type { Services } from '../services.js';

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal;
  }
}

const header = (request: FastifyRequest, name: string): string | undefined => {
  const value = request.headers[name];
  const first = Array.isArray(value) ? value[0] : value;
  return first?.trim() || undefined;
};

export interface ResolvedScope {
  workspaceId: string;
  /** The live session named by X-Session-ID, if any. */
  session: Session | null;
}

/**
 * Workspace resolution, for every route that takes a workspace: an explicit `workspace_id` (body, query or path),
 * then the X-Workspace-ID header, then the X-Session-ID session's workspace, then the caller's only workspace (a key
 * limited to one), then `_default`. An unknown or expired session is an error, never a silent fallback. The caller
 * must be allowed into the workspace found.
 */
export async function resolveScope(services: Services, request: FastifyRequest, explicit?: string | undefined): Promise<ResolvedScope> {
  const sessionId = header(request, 'x-session-id');
  const session = sessionId ? await services.sessions.get(sessionId) : null;
  const workspaceId = explicit ?? header(request, 'x-workspace-id') ?? session?.workspace_id ?? defaultWorkspaceOf(request.principal) ?? DEFAULT_WORKSPACE;
  authorizeWorkspace(request.principal, workspaceId);
  return { workspaceId, session: session && session.workspace_id === workspaceId ? session : null };
}

export async function resolveWorkspace(services: Services, request: FastifyRequest, explicit?: string | undefined): Promise<string> {
  return (await resolveScope(services, request, explicit)).workspaceId;
}

/**
 * The live session named by X-Session-ID, for routes that act on a session's own state (the context
 * environment): 400 without the header, 404 for an unknown session, 410 for an expired one, 403 when
 * the caller may not enter the session's workspace. Other workspace hints do not apply.
 */
export async function requireSession(services: Services, request: FastifyRequest): Promise<Session> {
  const sessionId = header(request, 'x-session-id');
  if (!sessionId) throw new AppError('bad_request', 'this route needs an X-Session-ID header naming a live session (POST /v1/sessions creates one)');
  const session = await services.sessions.get(sessionId);
  authorizeWorkspace(request.principal, session.workspace_id);
  return session;
}

/**
 * The caller of a scoped registry (skills, MCP servers): the resolved workspace, the user the request names (to
 * select user-owned entries), and whether it may write entries above a workspace (the admin, or local mode).
 */
export async function resolveRegistryCaller(services: Services, request: FastifyRequest, explicit: { workspace_id?: string | undefined; user_id?: string | undefined }): Promise<RegistryCaller> {
  const workspaceId = await resolveWorkspace(services, request, explicit.workspace_id);
  return { workspaceId, userId: explicit.user_id ?? null, tenantAdmin: request.principal.kind !== 'key' };
}

/** Bearer token from `Authorization: Bearer …`, or the `X-API-Key` header some clients send. */
export function presentedKey(request: FastifyRequest): string | undefined {
  const authorization = header(request, 'authorization');
  const bearer = authorization?.match(/^Bearer\s+(.+)$/i)?.[1]?.trim();
  return bearer ?? header(request, 'x-api-key');
}

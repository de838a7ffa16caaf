import type { Access, LocatableKind, SessionAccess } from '../core/access/access.js';
import type { Principal } from '../core/access/principal.js';
import type { CoreServices } from '../services.js';

/**
 * Who calls through MCP, and the workspace their connection names: X-Workspace-ID over streamable HTTP, the
 * `workspace` option of a stdio server. A tool's own `workspace_id` argument comes first.
 */
export interface McpCaller {
  principal: Principal;
  workspace: string | undefined;
}

/** What a tool receives besides its arguments: the core services, and the caller's Access to them. */
export interface ToolContext {
  services: CoreServices;
  caller: McpCaller;
  /** For a call the workspace scopes (see AccessResolver.scope); `sessionId`: the live session it works through. */
  scope(workspaceId: string | undefined, sessionId?: string): Promise<Access>;
  /** For a call that reads or removes what a workspace holds and never creates it (see AccessResolver.existing). */
  existing(workspaceId: string | undefined): Promise<Access>;
  /** For a call addressing one record by its id (see AccessResolver.forObject). */
  object(kind: LocatableKind, id: string, workspaceId: string | undefined): Promise<Access>;
  /** For a call acting on a live session's own state (see AccessResolver.ofSession). */
  session(sessionId: string): Promise<SessionAccess>;
  /**
   * The call failed: the workspaces its `scope` created go again (see AccessResolver.abandon). Never throws: the
   * call's own error is what the client must hear, and a workspace that cannot be removed stays.
   */
  abandon(): Promise<void>;
}

/** The caller's Access for one call, resolved by the same AccessResolver as every HTTP route. */
export function toolContext(services: CoreServices, caller: McpCaller): ToolContext {
  const hints = (workspaceId: string | undefined) => ({ body: workspaceId, header: caller.workspace });
  const creating: Access[] = [];
  return {
    services,
    caller,
    scope: async (workspaceId, sessionId) => {
      const access = await services.access.scope(caller.principal, { ...hints(workspaceId), sessionId });
      if (access.createdAt !== undefined) creating.push(access);
      return access;
    },
    abandon: async () => {
      for (const access of creating.splice(0)) await services.access.abandon(access).catch(() => undefined);
    },
    existing: (workspaceId) => services.access.existing(caller.principal, hints(workspaceId)),
    object: (kind, id, workspaceId) => services.access.forObject(caller.principal, hints(workspaceId), { kind, id }),
    session: (sessionId) => services.access.ofSession(caller.principal, sessionId),
  };
}

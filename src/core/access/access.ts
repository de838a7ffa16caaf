import { AppError, invalid, notFound } from '../../errors.js';
import { IDENTIFIER_RULE, isIdentifier } from '../identifiers.js';
import type { LocatableKind, ObjectLocator, Session, WorkspacePresence } from '../../storage/types.js';
import { DEFAULT_WORKSPACE } from '../workspaces/service.js';
import { authorizeWorkspace, defaultWorkspaceOf, mayCreateWorkspaces, mayUse, type Principal } from './principal.js';

/** The places a request may name its workspace, as the transport read them. */
export interface WorkspaceHints {
  /** `workspace_id` in the request body. */
  body?: string | undefined;
  /** `workspace_id` in the query string. */
  query?: string | undefined;
  /** The workspace hint clients send in a header (X-Workspace-ID over HTTP). */
  header?: string | undefined;
  /** The session the request says it belongs to (X-Session-ID over HTTP). */
  sessionId?: string | undefined;
}

/**
 * Who calls, in which workspace, through which session: what a transport hands to every core operation. Only the
 * resolver below makes one, so an Access always names a workspace its principal may use.
 */
export interface Access {
  readonly principal: Principal;
  readonly workspaceId: string;
  /** The live session the request named, when it belongs to this workspace. */
  readonly session: Session | null;
  /**
   * The workspace's creation stamp when resolving this Access created it (on first use): a call that then fails
   * hands the Access back to `AccessResolver.abandon`, so that a refused call leaves no workspace behind.
   */
  readonly createdAt?: string;
}

export type { LocatableKind };

/** Access through a live session, which is then always known. */
export interface SessionAccess extends Access {
  readonly session: Session;
}

/** A record addressed by its id (a path parameter). */
export interface ObjectRef {
  kind: LocatableKind;
  id: string;
}

/** What a record is called in a 404, by kind. */
const LABELS: Record<LocatableKind, string> = {
  memory: 'memory',
  association: 'association',
  session: 'session',
  thread: 'thread',
  document: 'document',
  ingestion_job: 'ingestion job',
  knowledgebase_job: 'knowledgebase job',
  skill: 'skill',
  mcp_server: 'MCP server',
  data_provider: 'data provider',
  contradiction: 'contradiction',
};

export interface AccessResolverDeps {
  locator: ObjectLocator;
  /** A live session by id: 404 when unknown, 410 when expired. */
  session(id: string): Promise<Session>;
  /** Whether the workspace exists, and whether it is provisional (created on first use by a call not finished). */
  presence(workspaceId: string): Promise<WorkspacePresence>;
  /** Marks a provisional workspace as used by another call than its creator's. Whether it exists. */
  adopt(workspaceId: string): Promise<boolean>;
  /** Creates the workspace, provisional, when absent: its creation stamp when this call created it. */
  createOnFirstUse(workspaceId: string): Promise<string | null>;
  /** Removes the provisional workspace created at `createdAt` if no other call used it (see `abandon`). */
  removeUnused(workspaceId: string, createdAt: string): Promise<void>;
  /** MEMD_WORKSPACE_AUTO_CREATE: a workspace named for the first time is created (for callers who may create). */
  autoCreate: boolean;
}

interface Choice {
  workspaceId: string;
  /** The request named the workspace (body, query, header or session) rather than falling back to a default. */
  named: boolean;
  session: Session | null;
}

/**
 * Workspace resolution, written once for every transport. The order: the body's `workspace_id`, the query's, the
 * header hint, the named session's workspace, the key's only workspace, `_default`. An unknown or expired session
 * is an error, never a silent fallback.
 */
export class AccessResolver {
  constructor(private readonly deps: AccessResolverDeps) {}

  /**
   * For a call the workspace scopes (a write, a search, a listing): the caller must be allowed into the workspace
   * found, which is created on first use when the caller may create workspaces (see NOTES.md).
   */
  async scope(principal: Principal, hints: WorkspaceHints): Promise<Access> {
    const choice = await this.choose(principal, hints);
    authorizeWorkspace(principal, choice.workspaceId);
    const createdAt = await this.createOnFirstUse(principal, choice.workspaceId);
    const access = { principal, workspaceId: choice.workspaceId, session: choice.session };
    return createdAt === null ? access : { ...access, createdAt };
  }

  /**
   * The call made with `access` failed: the workspace its resolution created goes again, so that a refused call
   * changes nothing (a write naming an unknown memory, a session id in use, …). It stays when another call has used
   * it meanwhile (adopted it) or anything was written into it.
   */
  async abandon(access: Access): Promise<void> {
    if (access.createdAt !== undefined) await this.deps.removeUnused(access.workspaceId, access.createdAt);
  }

  /**
   * For a call that only removes what a workspace already holds (an erasure): resolved and authorized as `scope`
   * does, but never created, so that erasing in a workspace nobody used is a 404 rather than a new empty workspace.
   */
  async existing(principal: Principal, hints: WorkspaceHints): Promise<Access> {
    const choice = await this.choose(principal, hints);
    authorizeWorkspace(principal, choice.workspaceId);
    return { principal, workspaceId: choice.workspaceId, session: choice.session };
  }

  /**
   * For a call addressing one record by its id. A named workspace is the one searched (so a record elsewhere is a
   * 404); with none named the record is found by its id, in a workspace the caller may use. A record in a workspace
   * the caller may not use is reported missing, exactly like one that does not exist.
   */
  async forObject(principal: Principal, hints: WorkspaceHints, ref: ObjectRef): Promise<Access> {
    const choice = await this.choose(principal, hints);
    if (choice.named) {
      authorizeWorkspace(principal, choice.workspaceId);
      return { principal, workspaceId: choice.workspaceId, session: choice.session };
    }
    const holders = (await this.deps.locator.workspacesOf(ref.kind, ref.id)).filter(
      (w) => w === null || mayUse(principal, w),
    );
    if (holders.length === 0) throw notFound(LABELS[ref.kind], ref.id);
    // An entry above every workspace is reached from the caller's own workspace.
    const home = homeWorkspace(principal, choice.workspaceId);
    const workspaceId =
      holders.includes(null) || holders.includes(home) ? home : holders.length === 1 ? holders[0]! : null;
    if (workspaceId === null) {
      throw new AppError(
        'not_found',
        `${LABELS[ref.kind]} '${ref.id}' exists in several of your workspaces: name one with workspace_id`,
      );
    }
    authorizeWorkspace(principal, workspaceId);
    return { principal, workspaceId, session: null };
  }

  /** For a call acting on the named session's own state: the session must be live and in a workspace the caller may use. */
  async ofSession(principal: Principal, sessionId: string): Promise<SessionAccess> {
    const session = await this.visibleSession(principal, sessionId);
    return { principal, workspaceId: session.workspace_id, session };
  }

  private async choose(principal: Principal, hints: WorkspaceHints): Promise<Choice> {
    const session = hints.sessionId ? await this.visibleSession(principal, hints.sessionId) : null;
    const hinted = hints.body ?? hints.query ?? hints.header;
    // A transport's schema checks the body and the query; the header (and what MCP resources and prompts name) only
    // here. A name no other hint could give would create a workspace that bodies, queries and tools then refuse.
    if (hinted !== undefined && !isIdentifier(hinted))
      throw invalid(
        (hints.body ?? hints.query) !== undefined ? '/workspace_id' : 'X-Workspace-ID',
        `is not a workspace id: ${IDENTIFIER_RULE}`,
      );
    const named = hinted ?? session?.workspace_id;
    const workspaceId = named ?? defaultWorkspaceOf(principal) ?? DEFAULT_WORKSPACE;
    return { workspaceId, named: named !== undefined, session: session?.workspace_id === workspaceId ? session : null };
  }

  /**
   * A live session the caller may see: one in a workspace it may not use is reported missing, as a record there is
   * (`forObject`), rather than refused, which would name that workspace to a caller with no access to it.
   */
  private async visibleSession(principal: Principal, sessionId: string): Promise<Session> {
    const session = await this.deps.session(sessionId);
    if (!mayUse(principal, session.workspace_id)) throw notFound('session', sessionId);
    return session;
  }

  /**
   * The workspace's creation stamp when this call created it, else null. A provisional workspace found here is
   * adopted first, so that its creator's failure cannot remove it under this call; one removed meanwhile is created
   * again (a few rounds at most: each needs another call to create and abandon it in between).
   */
  private async createOnFirstUse(principal: Principal, workspaceId: string): Promise<string | null> {
    const creates = workspaceId === DEFAULT_WORKSPACE || (this.deps.autoCreate && mayCreateWorkspaces(principal));
    for (let round = 0; round < 3; round++) {
      const presence = await this.deps.presence(workspaceId);
      if (presence === 'present') return null;
      if (presence === 'provisional' && (await this.deps.adopt(workspaceId))) return null;
      if (!creates) return null;
      const createdAt = await this.deps.createOnFirstUse(workspaceId);
      if (createdAt !== null) return createdAt;
    }
    return null;
  }
}

/** The workspace a caller acts from when the record it addresses belongs to none: its default, else its first. */
function homeWorkspace(principal: Principal, fallback: string): string {
  if (mayUse(principal, fallback) || principal.kind !== 'key') return fallback;
  return principal.key.workspaces[0] ?? fallback;
}

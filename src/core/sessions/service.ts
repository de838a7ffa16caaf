import { AppError, notFound } from '../../errors.js';
import type { JsonObject, Session, Storage, WorkingMemoryEntry } from '../../storage/types.js';
import { addMs, isoNow, type Clock } from '../clock.js';
import { newSessionId } from '../ids.js';
import { DEFAULT_CONTEXT } from '../memories/records.js';
import { DEFAULT_TENANT, type WorkspaceService } from '../workspaces/service.js';
import type { Access } from '../access/access.js';
import type { DetailLevel } from '../recall/types.js';
import {
  DEFAULT_BRIEFING_OPTIONS,
  SESSION_BRIEFING_LOOKBACK_HOURS,
  type Briefing,
  type BriefingOptions,
  type BriefingService,
} from './briefing.js';
import { DEFAULT_COMMIT_OPTIONS, type CommitOptions, type CommitResult, type SessionCommitter } from './commit.js';

export const DEFAULT_SESSION_TTL_SECONDS = 3600;

/**
 * Ends what lives for a session outside its rows (its Python sandbox, on this node) once the session
 * is gone; resolves when it has, so that a session re-created under the same id starts afresh.
 */
export interface SandboxCleanup {
  cleanup(sessionId: string): Promise<void>;
}

export interface SessionInput {
  session_id?: string | undefined;
  ttl_seconds?: number | undefined;
  metadata?: JsonObject | undefined;
  context_id?: string | undefined;
  user_id?: string | undefined;
  /** Initial working-memory entries, key to value. */
  working_memory?: JsonObject | undefined;
}

/** The briefing a caller asks for when starting a session; unset fields take the defaults. */
export interface StartBriefingRequest {
  lookbackHours?: number | undefined;
  detailLevel?: DetailLevel | undefined;
  limit?: number | undefined;
}

type Optional<T> = { [K in keyof T]?: T[K] | undefined };

export interface SessionView extends Session {
  /** Live working-memory entries, key to value. */
  working_memory: Record<string, unknown>;
}

/** Sessions: short-lived scopes with working memory; their id also resolves the workspace of a request. */
export class SessionService {
  constructor(
    private readonly storage: Storage,
    private readonly workspaces: WorkspaceService,
    private readonly clock: Clock,
    private readonly committer: SessionCommitter,
    private readonly briefings: BriefingService,
    private readonly sandboxes: SandboxCleanup,
  ) {}

  /**
   * Starts a session in the caller's workspace (created with its context when absent) and, when asked, a briefing
   * of the workspace for the agent starting it, looking back further than the briefing route: work resumes after a gap.
   */
  async start(
    access: Access,
    input: SessionInput,
    briefing: StartBriefingRequest | null,
  ): Promise<{ session: SessionView; briefing: Briefing | null }> {
    const session = await this.create(access.workspaceId, input);
    if (!briefing) return { session, briefing: null };
    const options: BriefingOptions = {
      ...DEFAULT_BRIEFING_OPTIONS,
      lookbackMinutes: Math.round((briefing.lookbackHours ?? SESSION_BRIEFING_LOOKBACK_HOURS) * 60),
      ...(briefing.detailLevel && { detailLevel: briefing.detailLevel }),
      ...(briefing.limit && { limit: briefing.limit }),
    };
    return { session, briefing: await this.briefings.build(session.workspace_id, options) };
  }

  /** What happened in the caller's workspace lately; unset options take the defaults. */
  briefing(access: Access, options: Optional<BriefingOptions>): Promise<Briefing> {
    const defined = Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined));
    return this.briefings.build(access.workspaceId, { ...DEFAULT_BRIEFING_OPTIONS, ...defined });
  }

  /** A live session addressed by id, in the caller's workspace (any other is reported missing). */
  async owned(access: Access, id: string): Promise<Session> {
    const session = await this.get(id);
    if (session.workspace_id !== access.workspaceId) throw notFound('session', id);
    return session;
  }

  async viewOwned(access: Access, id: string): Promise<SessionView> {
    return this.view(await this.owned(access, id));
  }

  /** Ends a session of the caller's workspace, expired or not: its working memory goes, committed memories stay. */
  async end(access: Access, id: string): Promise<void> {
    const session = await this.storage.sessions.get(id);
    if (!session || session.workspace_id !== access.workspaceId) throw notFound('session', id);
    await this.delete(id);
  }

  /** Commits the working memory; unset options take the defaults. */
  async commitOwned(access: Access, id: string, options: Optional<CommitOptions>): Promise<CommitResult> {
    const session = await this.owned(access, id);
    const defined = Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined));
    return this.committer.commit(session, { ...DEFAULT_COMMIT_OPTIONS, ...defined });
  }

  async putOwnedEntry(
    access: Access,
    id: string,
    key: string,
    value: unknown,
    ttlSeconds: number | null,
  ): Promise<WorkingMemoryEntry> {
    await this.owned(access, id);
    return this.putEntry(id, key, value, ttlSeconds);
  }

  /** Working memory as key → value: every live entry, or only `key` (404 when that entry is absent or expired). */
  async workingMemory(access: Access, id: string, key?: string): Promise<Record<string, unknown>> {
    await this.owned(access, id);
    const entries = await this.entries(id);
    const wanted = key === undefined ? entries : entries.filter((e) => e.key === key);
    if (key !== undefined && wanted.length === 0) throw notFound('working-memory entry', key);
    return Object.fromEntries(wanted.map((e) => [e.key, e.value]));
  }

  /** Extends a session of the caller's workspace: it now expires `seconds` (default: its TTL) from now. */
  async touchOwned(access: Access, id: string, seconds?: number): Promise<SessionView> {
    await this.owned(access, id);
    return this.view(await this.touch(id, seconds));
  }

  private async create(workspaceId: string, input: SessionInput): Promise<SessionView> {
    const id = input.session_id ?? newSessionId();
    const taken = () => new AppError('conflict', `session '${id}' already exists`);
    // Checked before the workspace is ensured; the insert below decides between two creates of one id at once.
    if (await this.storage.sessions.get(id)) throw taken();
    await this.workspaces.ensure(workspaceId);
    const contextId = input.context_id ?? DEFAULT_CONTEXT;
    const now = isoNow(this.clock);
    const ttl = input.ttl_seconds ?? DEFAULT_SESSION_TTL_SECONDS;
    const session: Session = {
      id,
      workspace_id: workspaceId,
      tenant_id: DEFAULT_TENANT,
      context_id: contextId,
      user_id: input.user_id ?? null,
      metadata: input.metadata ?? {},
      ttl_seconds: ttl,
      expires_at: addMs(now, ttl * 1000),
      created_at: now,
      updated_at: now,
    };
    await this.storage.transaction(async (tx) => {
      if (contextId !== DEFAULT_CONTEXT)
        await tx.contexts.create({
          id: contextId,
          workspace_id: workspaceId,
          name: contextId,
          description: null,
          settings: {},
          created_at: now,
          updated_at: now,
        });
      if (!(await tx.sessions.create(session))) throw taken();
      for (const [key, value] of Object.entries(input.working_memory ?? {})) {
        await tx.sessions.putEntry(id, {
          key,
          value,
          ttl_seconds: null,
          expires_at: null,
          created_at: now,
          updated_at: now,
        });
      }
    });
    return this.view(session);
  }

  /** A live session; 404 when unknown, 410 when its time-to-live has passed. */
  async get(id: string): Promise<Session> {
    const session = await this.storage.sessions.get(id);
    if (!session) throw notFound('session', id);
    if (session.expires_at <= isoNow(this.clock))
      throw new AppError('gone', `session '${id}' expired at ${session.expires_at}`);
    return session;
  }

  private async view(session: Session): Promise<SessionView> {
    const entries = await this.storage.sessions.entries(session.id, isoNow(this.clock));
    return { ...session, working_memory: Object.fromEntries(entries.map((e) => [e.key, e.value])) };
  }

  async list(options: {
    workspaceId?: string | undefined;
    contextId?: string | undefined;
    includeExpired: boolean;
  }): Promise<Session[]> {
    return this.storage.sessions.list({
      ...(options.workspaceId === undefined ? {} : { workspaceId: options.workspaceId }),
      ...(options.contextId === undefined ? {} : { contextId: options.contextId }),
      ...(options.includeExpired ? {} : { activeAt: isoNow(this.clock) }),
    });
  }

  private async delete(id: string): Promise<void> {
    if (!(await this.storage.sessions.delete(id))) throw notFound('session', id);
    await this.sandboxes.cleanup(id);
  }

  /** Sliding window: the session lives `seconds` (default: its own TTL) from now. */
  async touch(id: string, seconds?: number): Promise<Session> {
    const session = await this.get(id);
    const now = isoNow(this.clock);
    const updated = await this.storage.sessions.update(id, {
      expires_at: addMs(now, (seconds ?? session.ttl_seconds) * 1000),
      updated_at: now,
    });
    // Deleted since it was read (a touch and a delete at once through PostgreSQL answered 500 in 5 rounds of 40).
    if (!updated) throw notFound('session', id);
    return updated;
  }

  /**
   * Slides the expiry of the session a call worked through, once the call has done its work: a call refused (a link
   * to an unknown memory, a read-only workspace) changes nothing, the session's time to live included. A session
   * that ended while the call ran stays ended; the call's work stands.
   */
  async keepAlive(id: string): Promise<void> {
    await this.touch(id).catch((error: unknown) => {
      if (!(error instanceof AppError && (error.code === 'not_found' || error.code === 'gone'))) throw error;
    });
  }

  private async putEntry(
    id: string,
    key: string,
    value: unknown,
    ttlSeconds: number | null,
  ): Promise<WorkingMemoryEntry> {
    await this.get(id);
    const now = isoNow(this.clock);
    return this.storage.sessions.putEntry(id, {
      key,
      value,
      ttl_seconds: ttlSeconds,
      expires_at: ttlSeconds === null ? null : addMs(now, ttlSeconds * 1000),
      created_at: now,
      updated_at: now,
    });
  }

  private async entries(id: string): Promise<WorkingMemoryEntry[]> {
    await this.get(id);
    return this.storage.sessions.entries(id, isoNow(this.clock));
  }
}

import { AppError, notFound } from '../../errors.js';
import type { JsonObject, Session, Storage, WorkingMemoryEntry } from '../../storage/types.js';
import { addMs, isoNow, type Clock } from '../clock.js';
import { newSessionId } from '../ids.js';
import { DEFAULT_CONTEXT } from '../memories/records.js';
import { DEFAULT_TENANT, type WorkspaceService } from '../workspaces/service.js';
import type { Briefing, BriefingOptions, BriefingService } from './briefing.js';
import type { CommitOptions, CommitResult, SessionCommitter } from './commit.js';

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
  workspace_id: string;
  ttl_seconds?: number | undefined;
  metadata?: JsonObject | undefined;
  context_id?: string | undefined;
  user_id?: string | undefined;
  /** Initial working-memory entries, key to value. */
  working_memory?: JsonObject | undefined;
}

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

  /** Creates the session and, when asked, a briefing of its workspace for the agent starting it. */
  async start(input: SessionInput, briefing: BriefingOptions | null): Promise<{ session: SessionView; briefing: Briefing | null }> {
    const session = await this.create(input);
    return { session, briefing: briefing ? await this.briefings.build(session.workspace_id, briefing) : null };
  }

  private async create(input: SessionInput): Promise<SessionView> {
    const id = input.session_id ?? newSessionId();
    if (await this.storage.sessions.get(id)) throw new AppError('conflict', `session '${id}' already exists`);
    await this.workspaces.ensure(input.workspace_id);
    const contextId = input.context_id ?? DEFAULT_CONTEXT;
    const now = isoNow(this.clock);
    if (contextId !== DEFAULT_CONTEXT) {
      await this.storage.contexts.ensure({ id: contextId, workspace_id: input.workspace_id, name: contextId, description: null, settings: {}, created_at: now, updated_at: now });
    }
    const ttl = input.ttl_seconds ?? DEFAULT_SESSION_TTL_SECONDS;
    const session: Session = {
      id,
      workspace_id: input.workspace_id,
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
      await tx.sessions.create(session);
      for (const [key, value] of Object.entries(input.working_memory ?? {})) {
        await tx.sessions.putEntry(id, { key, value, ttl_seconds: null, expires_at: null, created_at: now, updated_at: now });
      }
    });
    return this.view(session);
  }

  /** A live session; 404 when unknown, 410 when its time-to-live has passed. */
  async get(id: string): Promise<Session> {
    const session = await this.storage.sessions.get(id);
    if (!session) throw notFound('session', id);
    if (session.expires_at <= isoNow(this.clock)) throw new AppError('gone', `session '${id}' expired at ${session.expires_at}`);
    return session;
  }

  async view(session: Session): Promise<SessionView> {
    const entries = await this.storage.sessions.entries(session.id, isoNow(this.clock));
    return { ...session, working_memory: Object.fromEntries(entries.map((e) => [e.key, e.value])) };
  }

  async list(options: { workspaceId?: string | undefined; contextId?: string | undefined; includeExpired: boolean }): Promise<Session[]> {
    return this.storage.sessions.list({
      ...(options.workspaceId === undefined ? {} : { workspaceId: options.workspaceId }),
      ...(options.contextId === undefined ? {} : { contextId: options.contextId }),
      ...(options.includeExpired ? {} : { activeAt: isoNow(this.clock) }),
    });
  }

  async delete(id: string): Promise<void> {
    if (!(await this.storage.sessions.delete(id))) throw notFound('session', id);
    await this.sandboxes.cleanup(id);
  }

  /** Sliding window: the session lives `seconds` (default: its own TTL) from now. */
  async touch(id: string, seconds?: number): Promise<Session> {
    const session = await this.get(id);
    const now = isoNow(this.clock);
    const updated = await this.storage.sessions.update(id, { expires_at: addMs(now, (seconds ?? session.ttl_seconds) * 1000), updated_at: now });
    return updated!;
  }

  /** Stores the live session's working memory as long-term memories (see SessionCommitter). */
  async commit(id: string, options: CommitOptions): Promise<CommitResult> {
    return this.committer.commit(await this.get(id), options);
  }

  async putEntry(id: string, key: string, value: unknown, ttlSeconds: number | null): Promise<WorkingMemoryEntry> {
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

  async entries(id: string): Promise<WorkingMemoryEntry[]> {
    await this.get(id);
    return this.storage.sessions.entries(id, isoNow(this.clock));
  }
}

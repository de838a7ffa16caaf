import { AppError, conflict, notFound } from '../../errors.js';
import { againIfGaveWay } from '../again-if-gave-way.js';
import type { Context, JsonObject, Storage, Workspace, WorkspacePresence } from '../../storage/types.js';
import { authorizeWorkspace, requireAdmin, visibleWorkspaces, type Principal } from '../access/principal.js';
import { isoNow, type Clock } from '../clock.js';
import type { CoreEvents } from '../events.js';
import { RELATIONSHIP_CATEGORIES, RELATIONSHIP_TYPES } from '../graph/taxonomy.js';
import { newId } from '../ids.js';
import { DEFAULT_DEDUP_POLICY, type DedupPolicy } from '../memories/dedup.js';
import { DEFAULT_CONTEXT } from '../memories/records.js';
import type { MemoryWriteScope } from '../memories/service.js';
import { MEMORY_SUBTYPES, MEMORY_TYPES } from '../memories/vocabulary.js';
import type { SandboxCleanup } from '../sessions/service.js';
import { DEFAULT_TENANT, DEFAULT_WORKSPACE } from './defaults.js';

export { DEFAULT_TENANT, DEFAULT_WORKSPACE } from './defaults.js';

export interface WorkspaceSchema {
  /** The four kinds of memory (`type`). */
  memory_types: string[];
  relationship_types: string[];
  /** Category → its types: what `relationship_categories` filters select. */
  relationship_categories: Record<string, string[]>;
  memory_subtypes: string[];
  can_customize: boolean;
}

const number01 = (value: unknown): number | undefined =>
  typeof value === 'number' && value >= 0 && value <= 1 ? value : undefined;

/** The duplicate policy of a workspace: `settings.deduplication` may switch it off or move its thresholds. */
export function dedupPolicyOf(settings: JsonObject): DedupPolicy {
  const raw = settings.deduplication;
  if (raw === false) return { ...DEFAULT_DEDUP_POLICY, enabled: false };
  if (typeof raw !== 'object' || raw === null) return DEFAULT_DEDUP_POLICY;
  const s = raw as JsonObject;
  return {
    enabled: s.enabled !== false,
    updateThreshold: number01(s.update_threshold) ?? DEFAULT_DEDUP_POLICY.updateThreshold,
    mergeThreshold: number01(s.merge_threshold) ?? DEFAULT_DEDUP_POLICY.mergeThreshold,
  };
}

/** Workspaces are the tenant boundary: every memory, session and edge belongs to exactly one. */
export class WorkspaceService {
  constructor(
    private readonly storage: Storage,
    private readonly clock: Clock,
    private readonly events: CoreEvents,
    private readonly sandboxes: SandboxCleanup,
  ) {}

  /** A key may create a workspace it already names (its own id); a workspace with a generated id needs the admin. */
  async create(
    principal: Principal,
    input: { id?: string | undefined; name: string; settings?: JsonObject | undefined },
  ): Promise<Workspace> {
    if (input.id) authorizeWorkspace(principal, input.id);
    else requireAdmin(principal);
    const now = isoNow(this.clock);
    const workspace: Workspace = {
      id: input.id ?? newId('ws'),
      tenant_id: DEFAULT_TENANT,
      name: input.name,
      settings: input.settings ?? {},
      created_at: now,
      updated_at: now,
    };
    await this.storage.transaction(async (tx) => {
      // The insert decides, so that of two creates of one id at once the second is told it exists.
      if (!(await tx.workspaces.create(workspace))) throw conflict(`workspace '${workspace.id}' already exists`);
      await tx.contexts.create(defaultContext(workspace.id, now));
    });
    return workspace;
  }

  async get(id: string): Promise<Workspace> {
    const workspace = await this.storage.workspaces.get(id);
    if (workspace) return workspace;
    // `_default` exists from its first use on.
    if (id === DEFAULT_WORKSPACE) return this.ensure(id);
    throw notFound('workspace', id);
  }

  /** Creates the workspace (and its default context) if absent: `_default` on first use, sessions' workspaces. */
  async ensure(id: string, name = id): Promise<Workspace> {
    await this.createIfAbsent(id, { name });
    const workspace = await this.storage.workspaces.get(id);
    // Deleted between the two: as if the delete had come after.
    if (!workspace) throw notFound('workspace', id);
    return workspace;
  }

  /**
   * Creates the workspace (and its default context) if absent, for a call that names it for the first time: its
   * creation stamp when this call created it. The workspace is provisional until another call uses it (`adopt`).
   */
  createOnFirstUse(id: string): Promise<string | null> {
    return this.createIfAbsent(id, { provisional: true });
  }

  /** Whether the workspace exists, and whether it is provisional (see `createOnFirstUse`). */
  presence(id: string): Promise<WorkspacePresence> {
    return this.storage.workspaces.presence(id);
  }

  /** A call other than its creator's uses a provisional workspace: it is no longer removable. Whether it exists. */
  adopt(id: string): Promise<boolean> {
    return this.storage.workspaces.adopt(id);
  }

  /**
   * Removes the provisional workspace created at `createdAt` for a call that then failed (AccessResolver.abandon),
   * unless another call has used it or anything was written into it. Whether it removed it.
   */
  async removeUnused(id: string, createdAt: string): Promise<boolean> {
    return this.storage.transaction((tx) => tx.workspaces.deleteUnused(id, createdAt, DEFAULT_CONTEXT));
  }

  /** The workspaces the caller may use, oldest first. */
  list(principal: Principal): Promise<Workspace[]> {
    return this.storage.workspaces.list(visibleWorkspaces(principal));
  }

  private async createIfAbsent(id: string, options: { name?: string; provisional?: boolean }): Promise<string | null> {
    const now = isoNow(this.clock);
    const created = await this.storage.transaction(async (tx) => {
      const inserted = await tx.workspaces.create(
        { id, tenant_id: DEFAULT_TENANT, name: options.name ?? id, settings: {}, created_at: now, updated_at: now },
        { provisional: options.provisional ?? false },
      );
      // Only with a workspace this call inserted: one that was there came with its context from the call that made
      // it, and may be gone by now (its creator's failed call abandons it, AccessResolver.abandon), where inserting a
      // context into it fails as a missing reference (404) instead of letting createOnFirstUse find it absent.
      if (inserted) await tx.contexts.create(defaultContext(id, now));
      return inserted;
    });
    return created ? now : null;
  }

  async update(
    id: string,
    patch: { name?: string | undefined; settings?: JsonObject | undefined },
  ): Promise<Workspace> {
    await this.get(id);
    const updated = await this.storage.workspaces.update(id, { ...patch, updated_at: isoNow(this.clock) });
    if (!updated) throw notFound('workspace', id);
    return updated;
  }

  async delete(id: string): Promise<void> {
    if (id === DEFAULT_WORKSPACE)
      throw new AppError('bad_request', `the '${DEFAULT_WORKSPACE}' workspace cannot be deleted`);
    // The cascade meets every writer into the workspace, and PostgreSQL broke a deadlock with one of them in about
    // one delete of sixty under concurrent writes (test/api/crossing-calls.test.ts): the delete is whole in its
    // transaction, so it is made again.
    const { deleted, sessions } = await againIfGaveWay(() =>
      this.storage.transaction(async (tx) => {
        const sessions = await tx.sessions.list({ workspaceId: id });
        return { deleted: await tx.workspaces.delete(id), sessions };
      }),
    );
    if (!deleted) throw notFound('workspace', id);
    await this.events.memoriesChanged(id);
    for (const session of sessions) await this.sandboxes.cleanup(session.id);
  }

  async schema(id: string): Promise<WorkspaceSchema> {
    await this.get(id);
    return {
      memory_types: [...MEMORY_TYPES],
      relationship_types: [...RELATIONSHIP_TYPES],
      relationship_categories: Object.fromEntries(
        Object.entries(RELATIONSHIP_CATEGORIES).map(([category, types]) => [category, [...types]]),
      ),
      memory_subtypes: [...MEMORY_SUBTYPES],
      can_customize: false,
    };
  }

  async writeScope(id: string): Promise<MemoryWriteScope> {
    const workspace = await this.get(id);
    return { workspaceId: workspace.id, tenantId: workspace.tenant_id, dedup: dedupPolicyOf(workspace.settings) };
  }

  async createContext(
    workspaceId: string,
    input: {
      id?: string | undefined;
      name: string;
      description?: string | undefined;
      settings?: JsonObject | undefined;
    },
  ): Promise<Context> {
    await this.get(workspaceId);
    const now = isoNow(this.clock);
    const context: Context = {
      id: input.id ?? newId('ctx'),
      workspace_id: workspaceId,
      name: input.name,
      description: input.description ?? null,
      settings: input.settings ?? {},
      created_at: now,
      updated_at: now,
    };
    // The insert decides, so that of two creates of one id at once the second is told it exists.
    if (!(await this.storage.contexts.create(context)))
      throw conflict(`context '${context.id}' already exists in workspace '${workspaceId}'`);
    return context;
  }

  async listContexts(workspaceId: string): Promise<Context[]> {
    await this.get(workspaceId);
    return this.storage.contexts.list(workspaceId);
  }
}

function defaultContext(workspaceId: string, now: string): Context {
  return {
    id: DEFAULT_CONTEXT,
    workspace_id: workspaceId,
    name: 'Default',
    description: null,
    settings: {},
    created_at: now,
    updated_at: now,
  };
}

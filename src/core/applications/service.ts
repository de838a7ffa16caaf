import { notFound } from '../../errors.js';
import type { Application, ApplicationLink, ApplicationType, JsonObject, Storage } from '../../storage/types.js';
import { isoNow, type Clock } from '../clock.js';
import { newId } from '../ids.js';
import { DEFAULT_TENANT, type WorkspaceService } from '../workspaces/service.js';
import { mergePatch } from './merge-patch.js';

export interface ApplicationInput {
  name: string;
  description?: string | undefined;
  app_type?: ApplicationType | undefined;
  enabled?: boolean | undefined;
  config?: JsonObject | undefined;
  metadata?: JsonObject | undefined;
}

export type ApplicationPatch = Partial<Omit<ApplicationInput, 'description'>> & {
  description?: string | null | undefined;
};

/** An application as it is in one workspace. */
export interface WorkspaceApplication {
  application: Application;
  link: ApplicationLink;
  /** The config with the link's overrides merged over it (JSON Merge Patch). */
  effective_config: JsonObject;
  /** Enabled both as an application and in this workspace. */
  effective_enabled: boolean;
}

/**
 * Applications are tenant-level records; a link enables one in a workspace with overrides of its config.
 * `visibleIn` (the workspaces of a limited API key) narrows reads to applications linked there.
 */
export class ApplicationService {
  constructor(
    private readonly storage: Storage,
    private readonly workspaces: WorkspaceService,
    private readonly clock: Clock,
  ) {}

  async create(input: ApplicationInput): Promise<Application> {
    const now = isoNow(this.clock);
    const application: Application = {
      id: newId('app'),
      tenant_id: DEFAULT_TENANT,
      name: input.name,
      description: input.description ?? null,
      app_type: input.app_type ?? 'generic',
      enabled: input.enabled ?? true,
      config: input.config ?? {},
      metadata: input.metadata ?? {},
      created_at: now,
      updated_at: now,
    };
    await this.storage.applications.create(application);
    return application;
  }

  list(
    page: { limit: number; offset: number },
    visibleIn?: readonly string[],
  ): Promise<{ applications: Application[]; total: number }> {
    return this.storage.applications.list({ ...page, ...(visibleIn ? { linkedTo: visibleIn } : {}) });
  }

  async get(id: string, visibleIn?: readonly string[]): Promise<Application> {
    const application = await this.storage.applications.get(id);
    if (!application || (visibleIn && !(await this.linkedToAny(id, visibleIn)))) throw notFound('application', id);
    return application;
  }

  async update(id: string, patch: ApplicationPatch): Promise<Application> {
    const updated = await this.storage.applications.update(id, { ...patch, updated_at: isoNow(this.clock) });
    if (!updated) throw notFound('application', id);
    return updated;
  }

  async delete(id: string): Promise<void> {
    if (!(await this.storage.applications.delete(id))) throw notFound('application', id);
  }

  /** Creates or changes the link; fields not given keep their value (new link: enabled, no overrides). */
  async link(
    id: string,
    workspaceId: string,
    input: { enabled?: boolean | undefined; config_overrides?: JsonObject | undefined },
  ): Promise<{ link: ApplicationLink; created: boolean }> {
    await this.get(id);
    await this.workspaces.get(workspaceId);
    const now = isoNow(this.clock);
    const fresh: ApplicationLink = {
      application_id: id,
      workspace_id: workspaceId,
      enabled: input.enabled ?? true,
      config_overrides: input.config_overrides ?? {},
      created_at: now,
      updated_at: now,
    };
    if (await this.storage.applications.createLink(fresh)) return { link: fresh, created: true };
    // Linked already, perhaps by a call at the same moment whose insert this one waited for: only what this call
    // gives changes. Reading the link and writing it back whole had undone such a call's change on PostgreSQL, and
    // both had answered 201.
    const link = await this.storage.applications.updateLink(id, workspaceId, {
      enabled: input.enabled,
      config_overrides: input.config_overrides,
      updated_at: now,
    });
    if (!link) throw notFound(`link of application '${id}' to workspace`, workspaceId);
    return { link, created: false };
  }

  async unlink(id: string, workspaceId: string): Promise<void> {
    await this.get(id);
    await this.workspaces.get(workspaceId);
    if (!(await this.storage.applications.deleteLink(id, workspaceId)))
      throw notFound(`link of application '${id}' to workspace`, workspaceId);
  }

  async inWorkspace(workspaceId: string): Promise<WorkspaceApplication[]> {
    await this.workspaces.get(workspaceId);
    return (await this.storage.applications.listLinked(workspaceId)).map(({ application, link }) => ({
      application,
      link,
      effective_config: mergePatch(application.config, link.config_overrides),
      effective_enabled: application.enabled && link.enabled,
    }));
  }

  private async linkedToAny(id: string, workspaceIds: readonly string[]): Promise<boolean> {
    for (const workspaceId of workspaceIds) if (await this.storage.applications.getLink(id, workspaceId)) return true;
    return false;
  }
}

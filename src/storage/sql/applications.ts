import type { Selectable } from 'kysely';
import type { ApplicationsTable, ApplicationWorkspacesTable } from '../database.js';
import { bit, json, parseJsonObject, toBool, toIso } from '../rows.js';
import type { Application, ApplicationLink, ApplicationStore, ApplicationType } from '../types.js';
import type { SqlContext } from './context.js';

const toApplication = (row: Selectable<ApplicationsTable>): Application => ({
  id: row.id,
  tenant_id: row.tenant_id,
  name: row.name,
  description: row.description,
  app_type: row.app_type as ApplicationType,
  enabled: toBool(row.enabled),
  config: parseJsonObject(row.config),
  metadata: parseJsonObject(row.metadata),
  created_at: toIso(row.created_at),
  updated_at: toIso(row.updated_at),
});

const toLink = (row: Selectable<ApplicationWorkspacesTable>): ApplicationLink => ({
  application_id: row.application_id,
  workspace_id: row.workspace_id,
  enabled: toBool(row.enabled),
  config_overrides: parseJsonObject(row.config_overrides),
  created_at: toIso(row.created_at),
  updated_at: toIso(row.updated_at),
});

const applicationValues = (patch: Partial<Application>) => {
  const { enabled, config, metadata, ...rest } = patch;
  return {
    ...rest,
    ...(enabled === undefined ? {} : { enabled: bit(enabled) }),
    ...(config === undefined ? {} : { config: json(config) }),
    ...(metadata === undefined ? {} : { metadata: json(metadata) }),
  };
};

export class SqlApplicationStore implements ApplicationStore {
  constructor(private readonly ctx: SqlContext) {}

  async create(application: Application): Promise<void> {
    await this.ctx.db
      .insertInto('applications')
      .values({
        ...application,
        enabled: bit(application.enabled),
        config: json(application.config),
        metadata: json(application.metadata),
      })
      .execute();
  }

  async get(id: string): Promise<Application | null> {
    const row = await this.ctx.db.selectFrom('applications').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toApplication(row) : null;
  }

  async list(options: {
    limit: number;
    offset: number;
    linkedTo?: readonly string[];
  }): Promise<{ applications: Application[]; total: number }> {
    let q = this.ctx.db.selectFrom('applications');
    const linkedTo = options.linkedTo;
    if (linkedTo !== undefined) {
      if (linkedTo.length === 0) return { applications: [], total: 0 };
      q = q.where('id', 'in', (eb) =>
        eb.selectFrom('application_workspaces').select('application_id').where('workspace_id', 'in', linkedTo),
      );
    }
    // One after the other: inside a transaction both run on one connection.
    const rows = await q
      .selectAll()
      .orderBy('created_at')
      .orderBy('id')
      .limit(options.limit)
      .offset(options.offset)
      .execute();
    const count = await q.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
    return { applications: rows.map(toApplication), total: Number(count.n) };
  }

  async update(
    id: string,
    patch: Partial<Omit<Application, 'id' | 'tenant_id' | 'created_at'>>,
  ): Promise<Application | null> {
    const row = await this.ctx.db
      .updateTable('applications')
      .set(applicationValues(patch))
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
    return row ? toApplication(row) : null;
  }

  async delete(id: string): Promise<boolean> {
    const result = await this.ctx.db.deleteFrom('applications').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async getLink(applicationId: string, workspaceId: string): Promise<ApplicationLink | null> {
    const row = await this.ctx.db
      .selectFrom('application_workspaces')
      .selectAll()
      .where('application_id', '=', applicationId)
      .where('workspace_id', '=', workspaceId)
      .executeTakeFirst();
    return row ? toLink(row) : null;
  }

  async createLink(link: ApplicationLink): Promise<boolean> {
    const result = await this.ctx.db
      .insertInto('application_workspaces')
      .values({ ...link, enabled: bit(link.enabled), config_overrides: json(link.config_overrides) })
      .onConflict((oc) => oc.columns(['application_id', 'workspace_id']).doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  async updateLink(
    applicationId: string,
    workspaceId: string,
    patch: Partial<Pick<ApplicationLink, 'enabled' | 'config_overrides'>> & Pick<ApplicationLink, 'updated_at'>,
  ): Promise<ApplicationLink | null> {
    const row = await this.ctx.db
      .updateTable('application_workspaces')
      .set({
        updated_at: patch.updated_at,
        ...(patch.enabled === undefined ? {} : { enabled: bit(patch.enabled) }),
        ...(patch.config_overrides === undefined ? {} : { config_overrides: json(patch.config_overrides) }),
      })
      .where('application_id', '=', applicationId)
      .where('workspace_id', '=', workspaceId)
      .returningAll()
      .executeTakeFirst();
    return row ? toLink(row) : null;
  }

  async deleteLink(applicationId: string, workspaceId: string): Promise<boolean> {
    const result = await this.ctx.db
      .deleteFrom('application_workspaces')
      .where('application_id', '=', applicationId)
      .where('workspace_id', '=', workspaceId)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async listLinked(workspaceId: string): Promise<Array<{ application: Application; link: ApplicationLink }>> {
    const rows = await this.ctx.db
      .selectFrom('application_workspaces as l')
      .innerJoin('applications as a', 'a.id', 'l.application_id')
      .selectAll('a')
      .select([
        'l.enabled as link_enabled',
        'l.config_overrides',
        'l.created_at as linked_at',
        'l.updated_at as link_updated_at',
      ])
      .where('l.workspace_id', '=', workspaceId)
      .orderBy('a.created_at')
      .orderBy('a.id')
      .execute();
    return rows.map(({ link_enabled, config_overrides, linked_at, link_updated_at, ...application }) => ({
      application: toApplication(application),
      link: toLink({
        application_id: application.id,
        workspace_id: workspaceId,
        enabled: link_enabled,
        config_overrides,
        created_at: linked_at,
        updated_at: link_updated_at,
      }),
    }));
  }
}

import type { Selectable } from 'kysely';
import type { DataProvidersTable } from '../database.js';
import { json, parseJsonObject, toIso, toIsoOrNull } from '../rows.js';
import type { DataProvider, DataProviderStore, DataProviderType } from '../types.js';
import type { SqlContext } from './context.js';

const toProvider = (row: Selectable<DataProvidersTable>): DataProvider => ({
  id: row.id,
  workspace_id: row.workspace_id,
  name: row.name,
  provider_type: row.provider_type as DataProviderType,
  connection_args: parseJsonObject(row.connection_args),
  sealed_args: row.sealed_args,
  schedule: row.schedule,
  metadata: parseJsonObject(row.metadata),
  last_synced_at: toIsoOrNull(row.last_synced_at),
  created_at: toIso(row.created_at),
  updated_at: toIso(row.updated_at),
});

const patchValues = (patch: Partial<DataProvider>) => {
  const { connection_args, metadata, ...rest } = patch;
  return {
    ...rest,
    ...(connection_args === undefined ? {} : { connection_args: json(connection_args) }),
    ...(metadata === undefined ? {} : { metadata: json(metadata) }),
  };
};

export class SqlDataProviderStore implements DataProviderStore {
  constructor(private readonly ctx: SqlContext) {}

  async create(provider: DataProvider): Promise<void> {
    await this.ctx.db
      .insertInto('data_providers')
      .values({ ...provider, connection_args: json(provider.connection_args), metadata: json(provider.metadata) })
      .execute();
  }

  async get(workspaceId: string, id: string): Promise<DataProvider | null> {
    const row = await this.ctx.db
      .selectFrom('data_providers')
      .selectAll()
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? toProvider(row) : null;
  }

  async list(
    workspaceId: string,
    page: { limit: number; offset: number },
  ): Promise<{ providers: DataProvider[]; total: number }> {
    const q = this.ctx.db.selectFrom('data_providers').where('workspace_id', '=', workspaceId);
    // One after the other: inside a transaction both run on one connection.
    const rows = await q
      .selectAll()
      .orderBy('created_at')
      .orderBy('id')
      .limit(page.limit)
      .offset(page.offset)
      .execute();
    const count = await q.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
    return { providers: rows.map(toProvider), total: Number(count.n) };
  }

  async update(
    workspaceId: string,
    id: string,
    patch: Partial<Omit<DataProvider, 'id' | 'workspace_id' | 'created_at'>>,
  ): Promise<DataProvider | null> {
    const row = await this.ctx.db
      .updateTable('data_providers')
      .set(patchValues(patch))
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
    return row ? toProvider(row) : null;
  }

  async delete(workspaceId: string, id: string): Promise<boolean> {
    const result = await this.ctx.db
      .deleteFrom('data_providers')
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}

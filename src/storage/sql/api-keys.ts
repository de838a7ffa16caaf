import type { Selectable } from 'kysely';
import type { ApiKeysTable } from '../database.js';
import { json, parseJson, toIso, toIsoOrNull } from '../rows.js';
import type { ApiKey, ApiKeyStore, MetaStore } from '../types.js';
import type { SqlContext } from './context.js';

const toApiKey = (row: Selectable<ApiKeysTable>): ApiKey => ({
  id: row.id,
  name: row.name,
  key_hash: row.key_hash,
  key_prefix: row.key_prefix,
  workspaces: parseJson<string[]>(row.workspaces),
  created_at: toIso(row.created_at),
  last_used_at: toIsoOrNull(row.last_used_at),
});

export class SqlApiKeyStore implements ApiKeyStore {
  constructor(private readonly ctx: SqlContext) {}

  async create(key: ApiKey): Promise<void> {
    await this.ctx.db
      .insertInto('api_keys')
      .values({ ...key, workspaces: json(key.workspaces) })
      .execute();
  }

  async findByHash(keyHash: string): Promise<ApiKey | null> {
    const row = await this.ctx.db.selectFrom('api_keys').selectAll().where('key_hash', '=', keyHash).executeTakeFirst();
    return row ? toApiKey(row) : null;
  }

  async list(): Promise<ApiKey[]> {
    const rows = await this.ctx.db.selectFrom('api_keys').selectAll().orderBy('created_at').orderBy('id').execute();
    return rows.map(toApiKey);
  }

  async delete(id: string): Promise<boolean> {
    const result = await this.ctx.db.deleteFrom('api_keys').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async touch(id: string, at: string): Promise<void> {
    await this.ctx.db.updateTable('api_keys').set({ last_used_at: at }).where('id', '=', id).execute();
  }
}

export class SqlMetaStore implements MetaStore {
  constructor(private readonly ctx: SqlContext) {}

  async get(key: string): Promise<string | null> {
    const row = await this.ctx.db.selectFrom('meta').select('value').where('key', '=', key).executeTakeFirst();
    return row?.value ?? null;
  }

  async set(key: string, value: string): Promise<void> {
    await this.ctx.db
      .insertInto('meta')
      .values({ key, value })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
      .execute();
  }
}

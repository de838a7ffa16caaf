import { sql, type Expression, type Insertable, type SqlBool } from 'kysely';
import type { Database } from '../database.js';
import type { RegistryViewer, ScopedFilter, ScopedOwner } from '../types.js';
import type { SqlContext } from './context.js';

/** The tables of the scoped registries; each has the owner columns, `name`, and a unique (scope_key, name). */
export type ScopedTable = 'skills' | 'mcp_servers';

/** Scope and owners without nulls: what the unique (scope_key, name) constraint of a scoped table compares. */
export const scopeKey = (owner: ScopedOwner): string =>
  `${owner.scope}:${owner.workspace_id ?? ''}:${owner.user_id ?? ''}`;

/**
 * Entries of the viewer's workspace or of none, and of the viewer's user or of none (what precedence chooses
 * among), narrowed by `filter`.
 */
function visibleTo(table: ScopedTable, viewer: RegistryViewer, filter: ScopedFilter): Expression<SqlBool> {
  const column = (name: string) => sql.ref(`${table}.${name}`);
  const ownUser = viewer.userId === null ? sql`` : sql` OR ${column('user_id')} = ${viewer.userId}`;
  const names = filter.names === undefined ? sql`` : sql` AND ${column('name')} IN (${sql.join(filter.names)})`;
  const scope = filter.scope === undefined ? sql`` : sql` AND ${column('scope')} = ${filter.scope}`;
  return sql<SqlBool>`(${column('workspace_id')} = ${viewer.workspaceId} OR ${column('workspace_id')} IS NULL) AND (${column('user_id')} IS NULL${ownUser})${names}${scope}`;
}

/**
 * What every scoped table answers alike: an entry by id, the entries a viewer can see, insertion unless the name
 * is taken in its scope, deletion. A kind's store says how its rows read as entries (`selectWhere`) and adds the
 * rest (its columns' encoding, a skill's files).
 */
export abstract class SqlScopedStore<T extends ScopedTable, E> {
  constructor(
    protected readonly ctx: SqlContext,
    private readonly table: T,
  ) {}

  /**
   * The table as Kysely can type it: it cannot check a query over a table chosen by a type parameter. The columns
   * these queries use (`id`, the owners, `name`, `scope_key`) are in every scoped table, as in `mcp_servers`.
   */
  private get typed(): 'mcp_servers' {
    return this.table as ScopedTable as 'mcp_servers';
  }

  /** The kind's entries whose rows match `where`, by name then id. */
  protected abstract selectWhere(where: Expression<SqlBool>): Promise<E[]>;

  async get(id: string): Promise<E | null> {
    const [entry] = await this.selectWhere(sql<SqlBool>`${sql.ref(`${this.table}.id`)} = ${id}`);
    return entry ?? null;
  }

  async getForChange(id: string): Promise<E | null> {
    // NO KEY UPDATE, as memories are held (MemoryStore.getForChange): it waits for another change of the entry and
    // lets inserts that only reference it (a skill's files) through. SQLite runs one transaction at a time.
    if (this.ctx.engine.dialect === 'postgres')
      await this.ctx.db.selectFrom(this.typed).select('id').where('id', '=', id).forNoKeyUpdate().execute();
    return this.get(id);
  }

  /** Entries the viewer can see, by name then scope. */
  async listVisible(viewer: RegistryViewer, filter: ScopedFilter = {}): Promise<E[]> {
    if (filter.names?.length === 0) return [];
    return this.selectWhere(visibleTo(this.table, viewer, filter));
  }

  async delete(id: string): Promise<boolean> {
    const result = await this.ctx.db.deleteFrom(this.typed).where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** Inserts the row unless its name is taken in its scope: false then. */
  protected async insertUnlessTaken(row: Omit<Insertable<Database[T]>, 'scope_key'> & ScopedOwner): Promise<boolean> {
    // The row's type is checked against the table's own (T) in the signature.
    const values = { ...row, scope_key: scopeKey(row) } as Insertable<Database['mcp_servers']>;
    const inserted = await this.ctx.db
      .insertInto(this.typed)
      .values(values)
      .onConflict((oc) => oc.columns(['scope_key', 'name']).doNothing())
      .returning('id')
      .executeTakeFirst();
    return inserted !== undefined;
  }
}

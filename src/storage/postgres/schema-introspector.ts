import {
  DEFAULT_MIGRATION_LOCK_TABLE,
  DEFAULT_MIGRATION_TABLE,
  PostgresDialect,
  sql,
  type ColumnMetadata,
  type DatabaseIntrospector,
  type DatabaseMetadata,
  type DatabaseMetadataOptions,
  type Kysely,
  type PostgresDialectConfig,
  type SchemaMetadata,
  type TableMetadata,
} from 'kysely';

/**
 * The database as Kysely sees it through `db.introspection`: the one schema memd's tables live in.
 *
 * Kysely's own PostgreSQL introspector lists every table of every schema with its columns, and its migrator asks for
 * that list several times a run only to learn whether its two bookkeeping tables exist. On a server that holds many
 * schemas (several memd databases, or another application's tables) the listing grows with all of them: with 78 memd
 * schemas on the test run's server it returned 23,947 columns in 150 ms a time, and a memd start on that server took
 * 3.2 s on average while the test run went on (NOTES.md, "Tests and CI"). Answering for `schema` alone keeps a start
 * as fast on a shared server as on an empty one.
 */
export class SchemaIntrospector implements DatabaseIntrospector {
  constructor(
    private readonly db: Kysely<unknown>,
    private readonly schema: string,
  ) {}

  async getSchemas(): Promise<SchemaMetadata[]> {
    const { rows } = await sql<SchemaMetadata>`
      SELECT nspname AS name FROM pg_catalog.pg_namespace WHERE nspname = ${this.schema}`.execute(this.db);
    return rows;
  }

  async getTables(options: DatabaseMetadataOptions = { withInternalKyselyTables: false }): Promise<TableMetadata[]> {
    const { rows } = await sql<ColumnRow>`
      SELECT c.relname AS table, c.relkind AS kind, a.attname AS column, t.typname AS type, tn.nspname AS type_schema,
        a.attnotnull AS not_null, a.atthasdef AS has_default, col_description(a.attrelid, a.attnum) AS comment,
        pg_get_serial_sequence(quote_ident(n.nspname) || '.' || quote_ident(c.relname), a.attname) IS NOT NULL
          AS auto_incrementing
      FROM pg_catalog.pg_class c
      JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
      JOIN pg_catalog.pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
      JOIN pg_catalog.pg_type t ON t.oid = a.atttypid
      JOIN pg_catalog.pg_namespace tn ON tn.oid = t.typnamespace
      WHERE n.nspname = ${this.schema} AND c.relkind IN ('r', 'p', 'v')
      ORDER BY c.relname, a.attnum`.execute(this.db);
    const internal = new Set([DEFAULT_MIGRATION_TABLE, DEFAULT_MIGRATION_LOCK_TABLE]);
    const tables = new Map<string, { name: string; isView: boolean; schema: string; columns: ColumnMetadata[] }>();
    for (const row of rows) {
      if (!options.withInternalKyselyTables && internal.has(row.table)) continue;
      let table = tables.get(row.table);
      if (!table) {
        table = { name: row.table, isView: row.kind === 'v', schema: this.schema, columns: [] };
        tables.set(row.table, table);
      }
      table.columns.push({
        name: row.column,
        dataType: row.type,
        dataTypeSchema: row.type_schema,
        isAutoIncrementing: row.auto_incrementing,
        isNullable: !row.not_null,
        hasDefaultValue: row.has_default,
        ...(row.comment !== null && { comment: row.comment }),
      });
    }
    return [...tables.values()];
  }

  async getMetadata(options?: DatabaseMetadataOptions): Promise<DatabaseMetadata> {
    return { tables: await this.getTables(options) };
  }
}

interface ColumnRow {
  table: string;
  kind: string;
  column: string;
  type: string;
  type_schema: string;
  not_null: boolean;
  has_default: boolean;
  comment: string | null;
  auto_incrementing: boolean;
}

/** Kysely's PostgreSQL dialect, introspecting only the schema memd's tables live in (SchemaIntrospector). */
export class SchemaPostgresDialect extends PostgresDialect {
  constructor(
    config: PostgresDialectConfig,
    private readonly schema: string,
  ) {
    super(config);
  }

  override createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new SchemaIntrospector(db, this.schema);
  }
}

import { sql, type ColumnDataType, type Expression } from 'kysely';

export type SqlDialect = 'sqlite' | 'postgres';

type DataType = ColumnDataType | Expression<unknown>;

/** Column types that differ between the engines; everything else in a migration is shared. */
export interface ColumnTypes {
  timestamp: DataType;
  json: DataType;
  bool: DataType;
  float: DataType;
  /** Binary data: bytea in Postgres, BLOB in SQLite. */
  bytes: DataType;
}

export function columnTypes(dialect: SqlDialect): ColumnTypes {
  return dialect === 'postgres'
    ? { timestamp: 'timestamptz', json: 'jsonb', bool: 'boolean', float: 'double precision', bytes: 'bytea' }
    : { timestamp: 'text', json: 'text', bool: 'integer', float: 'real', bytes: 'blob' };
}

/** A JSON literal default that both engines accept: `'[]'` in SQLite, `'[]'::jsonb` in Postgres. */
export function jsonDefault(dialect: SqlDialect, value: string) {
  return dialect === 'postgres' ? sql`${sql.lit(value)}::jsonb` : sql.lit(value);
}

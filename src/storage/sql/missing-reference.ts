import { AppError } from '../../errors.js';

/** PostgreSQL's `foreign_key_violation`. */
const POSTGRES_FOREIGN_KEY_VIOLATION = '23503';
const SQLITE_FOREIGN_KEY_VIOLATION = 'SQLITE_CONSTRAINT_FOREIGNKEY';
/** PostgreSQL's detail of an insert's violation: `Key (session_id)=(s-1) is not present in table "sessions".` */
const POSTGRES_DETAIL = /^Key \(([^)]+)\)=\((.*)\) is not present in table/;

/**
 * A write that refers to a row which another call deleted after this one had checked it (a memory written into a
 * workspace being deleted, a session's working memory set while the session is deleted): the database refuses the
 * insert, the transaction is rolled back, and the call is answered as if it had come after the delete, 404, instead
 * of 500. Every foreign key cascades or sets null on delete (src/storage/migrations), so a violation can only come
 * from an insert or update naming a row that is no longer there. Null for any other error.
 */
export function missingReference(error: unknown): AppError | null {
  const { code, detail } = (error ?? {}) as { code?: unknown; detail?: unknown };
  if (code !== POSTGRES_FOREIGN_KEY_VIOLATION && code !== SQLITE_FOREIGN_KEY_VIOLATION) return null;
  return new AppError(
    'not_found',
    `${referenced(detail)} no longer exists (deleted while this call ran); nothing was changed`,
    {
      cause: error,
    },
  );
}

/** "workspace 'team-a'" from PostgreSQL's detail of a one-column key; SQLite names neither the table nor the key. */
function referenced(detail: unknown): string {
  const [, column, value] = (typeof detail === 'string' ? POSTGRES_DETAIL.exec(detail) : null) ?? [];
  if (column === undefined || column.includes(',')) return 'a record this call refers to';
  return `${column.replace(/_id$/, '').replaceAll('_', ' ')} '${value}'`;
}

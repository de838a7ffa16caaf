import { expect } from 'vitest';

/** The fields a client reads from a record: each must be present (null is a value; undefined is a missing field). */
export function expectFields(record: unknown, fields: readonly string[], what = 'record'): void {
  expect(record, what).toBeTypeOf('object');
  const missing = fields.filter((field) => (record as Record<string, unknown>)[field] === undefined);
  expect(missing, `${what} lacks fields a client reads`).toEqual([]);
}

/** What the SDK reads from a memory. */
export const MEMORY_FIELDS = [
  'id',
  'workspace_id',
  'tenant_id',
  'context_id',
  'content',
  'content_hash',
  'type',
  'importance',
  'tags',
  'metadata',
  'access_count',
  'decay_factor',
  'created_at',
  'updated_at',
] as const;
/** What the SDK reads from an association (also the edges of a traversal path). */
export const ASSOCIATION_FIELDS = ['id', 'source_id', 'target_id', 'relationship', 'strength'] as const;
/** What the SDK reads from a session. */
export const SESSION_FIELDS = [
  'id',
  'workspace_id',
  'tenant_id',
  'context_id',
  'working_memory',
  'metadata',
  'expires_at',
  'created_at',
] as const;
/** What the SDK reads from a chat thread. */
export const THREAD_FIELDS = [
  'id',
  'workspace_id',
  'tenant_id',
  'context_id',
  'metadata',
  'message_count',
  'last_decomposed_index',
  'created_at',
  'updated_at',
] as const;
/** What the SDK reads from a chat message. */
export const MESSAGE_FIELDS = [
  'id',
  'thread_id',
  'message_index',
  'role',
  'content',
  'metadata',
  'created_at',
] as const;

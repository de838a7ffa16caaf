import type { JsonObject } from './types.js';

/** Driver values → record values. SQLite hands back text and 0/1, Postgres jsonb objects, booleans and Dates. */

export function toIso(value: string | Date): string {
  return value instanceof Date ? value.toISOString() : value;
}

export function toIsoOrNull(value: string | Date | null | undefined): string | null {
  return value === null || value === undefined ? null : toIso(value);
}

export function parseJson<T>(value: unknown): T {
  return (typeof value === 'string' ? JSON.parse(value) : value) as T;
}

export function parseJsonObject(value: unknown): JsonObject {
  return parseJson<JsonObject>(value) ?? {};
}

export function toBool(value: number | boolean): boolean {
  return value === true || value === 1;
}

export const json = (value: unknown): string => JSON.stringify(value);

export const bit = (value: boolean): number => (value ? 1 : 0);

import type { JsonObject } from './types.js';

/** Driver values → record values. Both engines return JSON as text; SQLite gives 0/1 and text times, Postgres booleans and Dates. */

export function toIso(value: string | Date): string {
  return value instanceof Date ? value.toISOString() : value;
}

export function toIsoOrNull(value: string | Date | null | undefined): string | null {
  return value === null || value === undefined ? null : toIso(value);
}

export function parseJson<T>(value: unknown): T {
  return JSON.parse(value as string) as T;
}

export function parseJsonObject(value: unknown): JsonObject {
  return parseJson<JsonObject>(value) ?? {};
}

export function toBool(value: number | boolean): boolean {
  return value === true || value === 1;
}

export const json = (value: unknown): string => JSON.stringify(value);

export const bit = (value: boolean): number => (value ? 1 : 0);

import type { JsonObject } from '../../storage/types.js';

const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * JSON Merge Patch (RFC 7386): objects merge key by key, all the way down; `null` removes a key; anything else
 * (a string, a number, an array) replaces. An application's effective config in a workspace is its config with
 * the link's overrides applied this way.
 */
export function mergePatch(target: JsonObject, patch: JsonObject): JsonObject {
  const result: JsonObject = { ...target };
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete result[key];
    else if (isObject(value)) {
      const base = result[key];
      result[key] = mergePatch(isObject(base) ? base : {}, value);
    } else result[key] = value;
  }
  return result;
}

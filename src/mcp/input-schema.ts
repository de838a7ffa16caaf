import type { TObject } from 'typebox';
import * as z from 'zod';

const converted = new WeakMap<TObject, z.ZodType>();

/**
 * A tool's input as the MCP SDK takes it (zod), from the TypeBox schema that declares the same shape for the HTTP
 * API: one declaration validates, types and documents both transports. JSON Schema is the common ground (TypeBox
 * schemas are JSON Schema); converted once per schema, as every request builds a fresh server.
 */
export function inputSchemaOf(schema: TObject): z.ZodType {
  let zod = converted.get(schema);
  if (!zod) {
    zod = z.fromJSONSchema(JSON.parse(JSON.stringify(schema)) as Parameters<typeof z.fromJSONSchema>[0]);
    converted.set(schema, zod);
  }
  return zod;
}

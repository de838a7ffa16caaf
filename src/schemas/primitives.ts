import { Type, type TSchema } from 'typebox';

/** A string from a fixed set: one `enum` keyword, so errors list the allowed values and OpenAPI shows them. */
export const StringEnum = <const T extends readonly string[]>(
  values: T,
  options: { description?: string; default?: T[number] } = {},
) => Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options });

export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** Any JSON object (metadata, settings). */
export const JsonObject = Type.Unsafe<Record<string, unknown>>({ type: 'object', additionalProperties: true });

export const Timestamp = Type.String({ format: 'date-time', description: 'ISO 8601, UTC' });

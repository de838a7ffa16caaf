import { Type, type TSchema, type TString } from 'typebox';
import { ERROR_CODES } from '../../errors.js';

/** A string from a fixed set: one `enum` keyword, so errors list the allowed values and OpenAPI shows them. */
export const StringEnum = <const T extends readonly string[]>(values: T, options: { description?: string; default?: T[number] } = {}) =>
  Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options });

export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** Any JSON object (metadata, settings). */
export const JsonObject = Type.Unsafe<Record<string, unknown>>({ type: 'object', additionalProperties: true });

export const Timestamp = Type.String({ format: 'date-time', description: 'ISO 8601, UTC' });

/** Required text: at least one non-blank character. */
export const NonBlank = (options: { maxLength?: number; description?: string } = {}) =>
  Type.String({ pattern: '\\S', maxLength: options.maxLength ?? 10_000, ...(options.description ? { description: options.description } : {}) });

export const Identifier = (description: string) => Type.String({ minLength: 1, maxLength: 128, pattern: '^[A-Za-z0-9_.:@-]+$', description });

export const Score01 = (description: string, options: { default?: number } = {}) => Type.Number({ minimum: 0, maximum: 1, description, ...options });

export const WorkspaceIdField = Type.Optional(Identifier('Workspace; default: from X-Workspace-ID, then the X-Session-ID session, then `_default`'));

export const ErrorResponse = Type.Object(
  {
    statusCode: Type.Integer(),
    error: Type.String(),
    message: Type.String(),
    code: StringEnum(ERROR_CODES, { description: 'stable machine-readable code, e.g. validation_error, not_found' }),
    details: Type.Array(Type.Object({ path: Type.String(), message: Type.String() })),
    retry_after: Type.Optional(Type.Number()),
  },
  { title: 'Error', description: 'Every failure uses this body' },
);

/** Error responses every /v1 route can give, for the OpenAPI document. */
export const commonErrors = {
  400: ErrorResponse,
  401: ErrorResponse,
  403: ErrorResponse,
  404: ErrorResponse,
  422: ErrorResponse,
  503: ErrorResponse,
};

export const WorkspaceQuery = Type.Object({ workspace_id: WorkspaceIdField }, { additionalProperties: false });

export const IdParams = <K extends string>(name: K, description: string) =>
  Type.Object({ [name]: Type.String({ minLength: 1, maxLength: 256, description }) } as Record<K, TString>);

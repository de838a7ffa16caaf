import { Type, type TString } from 'typebox';
import { IDENTIFIER_MAX_LENGTH, IDENTIFIER_PATTERN } from '../../core/identifiers.js';
import { ERROR_CODES } from '../../errors.js';
import { StringEnum } from '../../schemas/primitives.js';

export { JsonObject, Nullable, StringEnum, Timestamp } from '../../schemas/primitives.js';

/** Required text: at least one non-blank character. */
export const NonBlank = (options: { maxLength?: number; description?: string } = {}) =>
  Type.String({
    pattern: '\\S',
    maxLength: options.maxLength ?? 10_000,
    ...(options.description ? { description: options.description } : {}),
  });

export const Identifier = (description: string) =>
  Type.String({ minLength: 1, maxLength: IDENTIFIER_MAX_LENGTH, pattern: IDENTIFIER_PATTERN, description });

/**
 * The largest position or count a query takes (offsets, message indexes): the largest 32-bit integer, which every
 * engine's integer columns hold. Beyond it a request is a 422, never a database error.
 */
export const MAX_POSITION = 2_147_483_647;

export const Offset = Type.Integer({ minimum: 0, maximum: MAX_POSITION, default: 0, description: 'items to skip' });

/** `limit` and `offset` of a paged list. */
export const paging = (maxLimit: number, defaultLimit: number) => ({
  limit: Type.Integer({ minimum: 1, maximum: maxLimit, default: defaultLimit }),
  offset: Offset,
});

export const Score01 = (description: string, options: { default?: number } = {}) =>
  Type.Number({ minimum: 0, maximum: 1, description, ...options });

export const WorkspaceIdField = Type.Optional(
  Identifier('Workspace; default: from X-Workspace-ID, then the X-Session-ID session, then `_default`'),
);

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

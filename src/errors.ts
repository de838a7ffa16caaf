/**
 * The one error type every layer throws. The HTTP layer turns it into the JSON error body;
 * core, storage and providers only say what went wrong, never how it is sent.
 */
export type ErrorCode =
  | 'bad_request'
  | 'invalid_json'
  | 'validation_error'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'method_not_allowed'
  | 'conflict'
  | 'gone'
  | 'payload_too_large'
  | 'uri_too_long'
  | 'request_timeout'
  | 'headers_too_large'
  | 'unsupported_media_type'
  | 'rate_limited'
  | 'not_implemented'
  | 'provider_error'
  | 'provider_unavailable'
  | 'not_ready'
  | 'secrets_unavailable'
  | 'storage_unavailable'
  | 'internal_error';

const STATUS_BY_CODE: Record<ErrorCode, number> = {
  bad_request: 400,
  invalid_json: 400,
  validation_error: 422,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  gone: 410,
  payload_too_large: 413,
  uri_too_long: 414,
  request_timeout: 408,
  headers_too_large: 431,
  unsupported_media_type: 415,
  rate_limited: 429,
  not_implemented: 501,
  provider_error: 502,
  provider_unavailable: 503,
  not_ready: 503,
  secrets_unavailable: 503,
  storage_unavailable: 503,
  internal_error: 500,
};

/** Every code an error body can carry, for the API's schema. */
export const ERROR_CODES = Object.keys(STATUS_BY_CODE) as ErrorCode[];

export interface ErrorDetail {
  /** JSON pointer-ish path of the offending field, e.g. `/importance` or `/operations/3/content`. */
  path: string;
  message: string;
}

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly statusCode: number;
  readonly details: ErrorDetail[];
  /** Seconds a client should wait before retrying (429 and some 503s). */
  readonly retryAfter: number | undefined;

  constructor(
    code: ErrorCode,
    message: string,
    options: { details?: ErrorDetail[]; retryAfter?: number; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AppError';
    this.code = code;
    this.statusCode = STATUS_BY_CODE[code];
    this.details = options.details ?? [];
    this.retryAfter = options.retryAfter;
  }
}

/** The database could not be reached (a 503 to clients): no fault of the statement that met it. */
export const isStorageUnavailable = (error: unknown): error is AppError =>
  error instanceof AppError && error.code === 'storage_unavailable';

/**
 * The database rolled the call's transaction back for another's sake (PostgreSQL breaking a deadlock, or a
 * serialization failure): nothing was changed, and the same call can be made again (`againIfGaveWay`). A 409 like
 * any conflict, but with `Retry-After: 0`: that is how a client tells it from a conflict that sending again cannot
 * mend (a session id already taken), and packages/client retries it.
 */
export class GaveWayError extends AppError {
  constructor(cause: unknown) {
    super(
      'conflict',
      'another call changed the same records at the same moment and this one gave way; nothing was changed: send it again',
      { cause, retryAfter: 0 },
    );
    this.name = 'GaveWayError';
  }
}

export const isNotFound = (error: unknown): error is AppError =>
  error instanceof AppError && error.code === 'not_found';

export const notFound = (what: string, id: string): AppError =>
  new AppError('not_found', `${what} '${id}' was not found`);

export const invalid = (path: string, message: string): AppError =>
  new AppError('validation_error', `${path.replace(/^\//, '') || 'request'}: ${message}`, {
    details: [{ path, message }],
  });

export const conflict = (message: string): AppError => new AppError('conflict', message);

export const forbidden = (message: string): AppError => new AppError('forbidden', message);

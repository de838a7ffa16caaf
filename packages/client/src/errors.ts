import type { components } from './generated/openapi.js';

/** The body of every memd error response. */
export type ErrorBody = components['schemas']['Error'];
export type ErrorCode = ErrorBody['code'];
export type ErrorDetail = ErrorBody['details'][number];

/**
 * Everything this client throws, except the caller's own abort (which rejects with the signal's reason). `status` is
 * the HTTP status, or 0 when no answer came (connection failure, timeout).
 */
export class MemdError extends Error {
  readonly status: number;
  readonly code: ErrorCode | 'connection_error' | 'timeout' | (string & {});
  readonly details: ErrorDetail[];
  /** The response body as received (an error body from memd, or whatever a proxy sent). */
  readonly body: unknown;
  /** Seconds the server asked to wait before trying again (429, and a 503 that says so). */
  readonly retryAfter: number | undefined;

  constructor(
    message: string,
    options: {
      status: number;
      code: MemdError['code'];
      details?: ErrorDetail[];
      body?: unknown;
      retryAfter?: number | undefined;
      cause?: unknown;
    },
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.status = options.status;
    this.code = options.code;
    this.details = options.details ?? [];
    this.body = options.body;
    this.retryAfter = options.retryAfter;
  }
}

/** 400: the request could not be read (bad JSON, a missing header). */
export class BadRequestError extends MemdError {}
/** 422: the request was read but a field is invalid; `details` names each field. */
export class ValidationError extends BadRequestError {}
export class UnauthorizedError extends MemdError {}
export class ForbiddenError extends MemdError {}
export class NotFoundError extends MemdError {}
export class ConflictError extends MemdError {}
/** 410: the session (or what depends on it) has expired. */
export class GoneError extends MemdError {}
export class PayloadTooLargeError extends MemdError {}
export class UnsupportedMediaTypeError extends MemdError {}

/** 429: too many requests; `retryAfter` says in how many seconds to try again. */
export class RateLimitedError extends MemdError {}

/** 5xx. */
export class ServerError extends MemdError {}
export class NotImplementedError extends ServerError {}
/** 503: not ready, shutting down, or a provider (language model, embedder, secrets) is not available. */
export class ServiceUnavailableError extends ServerError {}

/** No answer: the connection failed or was cut. */
export class ConnectionError extends MemdError {}
/** No answer within the request's timeout. */
export class TimeoutError extends MemdError {}

const CLASS_BY_STATUS: Record<number, typeof MemdError> = {
  400: BadRequestError,
  401: UnauthorizedError,
  403: ForbiddenError,
  404: NotFoundError,
  409: ConflictError,
  410: GoneError,
  413: PayloadTooLargeError,
  415: UnsupportedMediaTypeError,
  422: ValidationError,
  429: RateLimitedError,
  501: NotImplementedError,
  503: ServiceUnavailableError,
};

const isErrorBody = (body: unknown): body is Partial<ErrorBody> & { message: string } =>
  typeof body === 'object' && body !== null && typeof (body as { message?: unknown }).message === 'string';

/** The typed error for a failed response; `retryAfter` in seconds, from the Retry-After header or the body. */
export function errorFromResponse(status: number, body: unknown, retryAfter: number | undefined): MemdError {
  const parsed = isErrorBody(body) ? body : undefined;
  const message =
    parsed?.message ?? (typeof body === 'string' && body.trim() !== '' ? body.trim().slice(0, 500) : `HTTP ${status}`);
  const options = {
    status,
    code: parsed?.code ?? `http_${status}`,
    details: Array.isArray(parsed?.details) ? parsed.details : [],
    body,
    retryAfter: retryAfter ?? parsed?.retry_after,
  };
  const ErrorClass = CLASS_BY_STATUS[status] ?? (status >= 500 ? ServerError : MemdError);
  return new ErrorClass(message, options);
}

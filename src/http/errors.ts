import { STATUS_CODES } from 'node:http';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, type ErrorCode, type ErrorDetail } from '../errors.js';

/** The one error body: fastify's own shape, extended with a stable code and per-field details. */
export interface ErrorBody {
  statusCode: number;
  error: string;
  message: string;
  code: ErrorCode;
  details: ErrorDetail[];
  retry_after?: number;
}

interface AjvIssue {
  instancePath: string;
  message?: string;
  keyword: string;
  params: Record<string, unknown>;
}

/** Ajv's complaint, said for a person: which field, what is wrong with it. */
function describeIssue(issue: AjvIssue, part: string): ErrorDetail {
  let path = `/${part}${issue.instancePath}`;
  let message = issue.message ?? 'is invalid';
  if (issue.keyword === 'additionalProperties') {
    path = `${path}/${String(issue.params.additionalProperty)}`;
    message = 'is not a known field';
  } else if (issue.keyword === 'required') {
    path = `${path}/${String(issue.params.missingProperty)}`;
    message = 'is required';
  } else if (issue.keyword === 'enum' || issue.keyword === 'const') {
    const allowed = (issue.params.allowedValues ?? [issue.params.allowedValue]) as unknown[];
    message = `must be one of: ${allowed.map(String).join(', ')}`;
  }
  return { path, message };
}

/** Maps fastify's own failures (parsing, limits, validation) to AppErrors; anything unknown is a 500. */
export function toAppError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  const e = error as FastifyError & { validation?: AjvIssue[]; validationContext?: string };
  if (e.validation) {
    const details = dedupeDetails(e.validation.map((issue) => describeIssue(issue, e.validationContext ?? 'body')));
    const summary = details
      .map((d) => `${d.path.replace(/^\/(body|querystring|params|headers|arguments)\/?/, '') || d.path} ${d.message}`)
      .join('; ');
    return new AppError('validation_error', `invalid request: ${summary}`, { details });
  }
  switch (e.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new AppError('invalid_json', `the request body is not valid JSON: ${e.message}`);
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new AppError('invalid_json', 'the request body is empty but Content-Type says JSON');
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new AppError('payload_too_large', 'the request body is larger than this endpoint accepts');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new AppError('unsupported_media_type', `unsupported Content-Type: ${e.message}`);
    case 'FST_ERR_BAD_URL':
      return new AppError('bad_request', 'the URL does not decode: a percent-encoded part of its path is not UTF-8');
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return new AppError('uri_too_long', 'a path parameter is longer than any id (256 characters)');
  }
  if (e instanceof SyntaxError) return new AppError('invalid_json', `the request body is not valid JSON: ${e.message}`);
  if (e.statusCode === 413) return new AppError('payload_too_large', e.message);
  if (e.statusCode === 415) return new AppError('unsupported_media_type', e.message);
  if (typeof e.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 500) {
    return new AppError(
      e.statusCode === 404 ? 'not_found' : e.statusCode === 429 ? 'rate_limited' : 'bad_request',
      e.message,
    );
  }
  return new AppError('internal_error', 'internal server error', { cause: error });
}

function dedupeDetails(details: ErrorDetail[]): ErrorDetail[] {
  const seen = new Set<string>();
  return details.filter((d) => {
    const key = `${d.path} ${d.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

export function errorBody(error: AppError): ErrorBody {
  const body: ErrorBody = {
    statusCode: error.statusCode,
    error: STATUS_CODES[error.statusCode] ?? 'Error',
    message: error.message,
    code: error.code,
    details: error.details,
  };
  if (error.retryAfter !== undefined) body.retry_after = error.retryAfter;
  return body;
}

/** The media type a route could not read, named in its 415 (fastify's own message names none). */
const refusedMediaType = (request: FastifyRequest): AppError =>
  new AppError(
    'unsupported_media_type',
    `this endpoint does not read Content-Type '${request.headers['content-type'] ?? ''}'`,
  );

export function handleError(error: unknown, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const appError =
    (error as FastifyError).code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' ? refusedMediaType(request) : toAppError(error);
  if (appError.statusCode >= 500) request.log.error({ err: error }, 'request failed');
  if (appError.retryAfter !== undefined) reply.header('retry-after', String(appError.retryAfter));
  // The rest of an oversized body may still be on its way: this connection cannot carry another request.
  if (appError.statusCode === 413) reply.header('connection', 'close');
  return reply.status(appError.statusCode).type('application/json').send(errorBody(appError));
}

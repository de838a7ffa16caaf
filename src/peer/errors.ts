import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../errors.js';
import { toAppError } from '../http/errors.js';

const TYPE_BY_STATUS: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  404: 'invalid_request_error',
  413: 'invalid_request_error',
  422: 'invalid_request_error',
  501: 'not_implemented',
  502: 'upstream_error',
  503: 'service_unavailable',
};

/**
 * The peer speaks OpenAI's error shape, `{error: {message, type, code}}`, so that OpenAI clients (memd's own
 * providers among them) show the message. Schema violations are 400s there, as OpenAI answers them.
 */
export function peerErrorHandler(error: unknown, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const appError = toAppError(error);
  const status = appError.code === 'validation_error' ? 400 : appError.statusCode;
  if (status >= 500 && status !== 501) request.log.error({ err: error }, 'request failed');
  return reply
    .status(status)
    .type('application/json')
    .send({
      error: { message: appError.message, type: TYPE_BY_STATUS[status] ?? 'server_error', code: appError.code },
    });
}

export const modelNotFound = (model: string, available: readonly string[]): AppError =>
  new AppError('not_found', `model '${model}' is not served here; available: ${available.join(', ')}`);

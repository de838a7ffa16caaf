import type { ConnectionError } from 'fastify';
import type { Socket } from 'node:net';
import { AppError } from '../errors.js';
import { errorBody } from './errors.js';

/** What a request Node could not take in is answered as: its timeout, headers too large, anything else malformed. */
function refusal(error: ConnectionError): AppError {
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT')
    return new AppError('request_timeout', 'the request was not received in time (MEMD_REQUEST_TIMEOUT_SECONDS)');
  if (error.code === 'HPE_HEADER_OVERFLOW')
    return new AppError('headers_too_large', 'the request headers are too large');
  return new AppError('bad_request', 'the request is not valid HTTP');
}

/**
 * A request Node refused before any route saw it (a slow or never-sent body, oversized headers, malformed HTTP)
 * gets the one error body, then the connection closes: what is left of it cannot be read as a request.
 */
export function answerConnectionError(error: ConnectionError, socket: Socket): void {
  // A reset connection has no one to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  if (socket.writable) {
    const refused = errorBody(refusal(error));
    const body = JSON.stringify(refused);
    socket.write(
      `HTTP/1.1 ${refused.statusCode} ${refused.error}\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}

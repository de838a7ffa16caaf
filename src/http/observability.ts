import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Observability } from '../observability/index.js';
import { withLogger } from '../observability/log-context.js';
import type { RequestSpan } from '../observability/tracing.js';
import type { App } from './server.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Runs work in the request's context: its logger (with its id) and its span. */
    enterScope: <T>(work: () => T) => T;
    requestSpan: RequestSpan;
  }
}

/** A client's own request id is kept when it is short and plain (it lands in logs and a response header). */
const CLIENT_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The id of a request: the client's `X-Request-ID` when sane, else a fresh UUID (unique across nodes). */
export function requestId(request: IncomingMessage): string {
  const sent = request.headers['x-request-id'];
  return typeof sent === 'string' && CLIENT_REQUEST_ID.test(sent) ? sent : randomUUID();
}

/** Where a request went, as a label: the route pattern, never the raw URL (ids would make every request a series). */
const routeOf = (pattern: string | undefined): string => pattern ?? 'unmatched';

/**
 * Request ids, request metrics and request spans. Every response names its request in `X-Request-ID`; the
 * request's handlers run in its context, so that what the core logs carries the id and the spans it starts are
 * children of the request's span.
 */
export function observeRequests(app: App, { metrics, tracing }: Observability): void {
  app.decorateRequest('enterScope', null as never);
  app.decorateRequest('requestSpan', null as never);

  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    const traceparent = request.headers.traceparent;
    request.requestSpan = tracing.startRequest(`${request.method} ${routeOf(request.routeOptions.url)}`, typeof traceparent === 'string' ? traceparent : undefined, {
      'http.request.method': request.method,
      'url.path': request.url.split('?')[0],
      'memd.request_id': request.id,
    });
    request.enterScope = (work) => withLogger(request.log, () => request.requestSpan.enter(work));
    request.enterScope(done);
  });
  // The request body is read in the socket's context, not the request's: the handlers are entered into it again.
  app.addHook('preValidation', (request, _reply, done) => request.enterScope(done));

  app.addHook('onResponse', (request, reply, done) => {
    metrics.httpRequest(request.method, routeOf(request.routeOptions.url), reply.statusCode, reply.elapsedTime / 1000);
    request.requestSpan.end(reply.statusCode, request.routeOptions.url);
    done();
  });
}

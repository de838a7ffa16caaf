import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Observability } from '../observability/index.js';
import { withLogger } from '../observability/log-context.js';
import type { RequestSpan } from '../observability/tracing.js';
import type { App } from './server.js';

declare module 'fastify' {
  interface FastifyRequest {
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

const CLIENT_CLOSED_REQUEST = 499;

/**
 * Request ids, request metrics and request spans. Every response names its request in `X-Request-ID`; the
 * request's handlers run in its context, so that what the core logs carries the id and the spans it starts are
 * children of the request's span.
 */
export function observeRequests(app: App, { metrics, tracing }: Observability): void {
  app.decorateRequest('requestSpan', null as never);

  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    const traceparent = request.headers.traceparent;
    request.requestSpan = tracing.startRequest(
      `${request.method} ${routeOf(request.routeOptions.url)}`,
      typeof traceparent === 'string' ? traceparent : undefined,
      {
        'http.request.method': request.method,
        'url.path': request.url.split('?')[0],
        'memd.request_id': request.id,
      },
    );
    // 'close' comes once the response is sent, and also when the client hung up before it (which no Fastify hook
    // reports for a request already read): then the status is 499, nginx's "client closed request".
    reply.raw.once('close', () => {
      const statusCode = reply.raw.writableFinished ? reply.statusCode : CLIENT_CLOSED_REQUEST;
      metrics.httpRequest(request.method, routeOf(request.routeOptions.url), statusCode, reply.elapsedTime / 1000);
      request.requestSpan.end(statusCode, request.routeOptions.url);
    });
    // The rest of the request runs inside: its body is read and its handler called from here (test/api/request-id.test.ts
    // shows that a body of many packets keeps the context).
    withLogger(request.log, () => request.requestSpan.enter(done));
  });
}

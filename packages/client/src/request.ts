import type { Answer, CallOptions, RawBody, Read, RequestBody, Transport } from './transport.js';

/** What `MemdClient.request` sends besides its method and path. */
export interface RequestOptions extends CallOptions {
  /** Query parameters: arrays as repeated keys, undefined values left out. */
  query?: Record<string, unknown>;
  /** A value sent as JSON, with `Content-Type: application/json`. */
  json?: unknown;
  /** A body sent as it is: text or bytes under the `Content-Type` given in `headers`, a form as multipart. */
  body?: RawBody | FormData;
  /** How a successful answer's body is read; 'json' (the default) parses JSON and leaves any other body as text. */
  read?: Read;
  /** The request only reads, so it may be sent again after a connection failure (GET, PUT and DELETE always may). */
  idempotent?: boolean;
}

function requestBody(json: unknown, body: RequestOptions['body']): RequestBody | undefined {
  if (json !== undefined) return { json };
  if (body === undefined) return undefined;
  return body instanceof FormData ? { form: body } : { raw: body };
}

/**
 * The client's untyped request over `transport`: every status is an answer (a failure's body read as JSON or text),
 * after the retries its policy allows.
 */
export const requestOver =
  (transport: Transport) =>
  <T = unknown>(method: string, path: string, options: RequestOptions = {}): Promise<Answer<T>> => {
    const { json, body, read = 'json', idempotent = false, ...call } = options;
    return transport.send<T>({
      ...call,
      method,
      path,
      body: requestBody(json, body),
      read,
      idempotent,
      answers: 'every',
    });
  };

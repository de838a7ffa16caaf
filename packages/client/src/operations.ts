/**
 * Types over the generated `paths` (from openapi.json), and the factory every plain method of the client is made
 * with. A method's arguments and result are read from the operation it calls, so a changed field in the API is
 * a regeneration (`npm run openapi`), not an edit here.
 */
import type { paths } from './generated/openapi.js';
import { operations } from './generated/operations.js';
import type { Answer, CallOptions, Transport } from './transport.js';

export type Path = keyof paths;
export type HttpMethod = 'get' | 'post' | 'put' | 'delete' | 'patch';

/** The methods a path answers. */
export type MethodOf<P extends Path> = { [M in HttpMethod]: paths[P][M] extends object ? M : never }[HttpMethod];

export type Operation<P extends Path, M extends MethodOf<P>> = NonNullable<paths[P][M]>;

/** What an operation's response or request body carries as `media`; never when it carries no such content. */
export type Content<R, Media extends string> = R extends { content: { [K in Media]: infer T } } ? T : never;

export type JsonBody<O> = O extends { requestBody?: infer R } ? Content<NonNullable<R>, 'application/json'> : never;
export type MultipartBody<O> = O extends { requestBody?: infer R }
  ? Content<NonNullable<R>, 'multipart/form-data'>
  : never;
export type Query<O> = O extends { parameters: { query?: infer Q } } ? Exclude<Q, undefined> : never;

type SuccessStatus = 200 | 201 | 202 | 204;
type Responses<O> = O extends { responses: infer R } ? R : never;

/** The body of a successful answer in `media` (a 204 is `void`). */
export type Result<O, Media extends string = 'application/json'> = {
  // biome-ignore lint/suspicious/noConfusingVoidType: a method whose answer is a 204 returns Promise<void>.
  [S in keyof Responses<O> & SuccessStatus]: S extends 204 ? void : Content<Responses<O>[S], Media>;
}[keyof Responses<O> & SuccessStatus];

/** One string argument per `{parameter}` of the path template, in order. */
export type PathArgs<P extends string> = P extends `${string}{${string}}${infer Rest}`
  ? [string, ...PathArgs<Rest>]
  : [];

/** No argument when there is no T, an optional one when every field of T is optional, else a required one. */
// biome-ignore lint/complexity/noBannedTypes: `{} extends T` is how a type asks whether every field of T is optional.
type Input<T> = [T] extends [never] ? [] : {} extends T ? [input?: T] : [input: T];

/** Per-call options of an operation that takes a JSON body: its query parameters, if it has any, go here. */
export type BodyCallOptions<Q> = CallOptions & ([Q] extends [never] ? { query?: never } : { query?: Q });

/** A method's arguments: path parameters, then the JSON body if it takes one (its query goes in the options), else its query. */
export type Args<P extends Path, M extends MethodOf<P>> = [JsonBody<Operation<P, M>>] extends [never]
  ? [...PathArgs<P & string>, ...Input<Query<Operation<P, M>>>, options?: CallOptions]
  : [...PathArgs<P & string>, ...Input<JsonBody<Operation<P, M>>>, options?: BodyCallOptions<Query<Operation<P, M>>>];

/** A client method: the call answers the body; `withResponse` answers the status and headers too. */
export interface Endpoint<A extends unknown[], Data> {
  (...args: A): Promise<Data>;
  withResponse(...args: A): Promise<Answer<Data>>;
  /** `METHOD /path/{template}` of the OpenAPI operation this method calls. */
  readonly operation: string;
}

/** The method that calls one operation of the API, typed from it. */
export type OperationMethod<P extends Path, M extends MethodOf<P>> = Endpoint<Args<P, M>, Result<Operation<P, M>>>;

export interface EndpointFlags {
  /** A POST that only reads (recall, search): safe to send again after a connection failure. */
  idempotent?: boolean;
}

const PARAMETER = /\{([^{}]+)\}/g;

/** The path with each `{parameter}` filled in, encoded; `{*}` (a wildcard) keeps its slashes. */
export function fillPath(template: string, values: readonly unknown[]): string {
  let index = 0;
  return template.replace(PARAMETER, (_match, name: string) => {
    const value = values[index++];
    if (typeof value !== 'string' || value === '')
      throw new TypeError(`${template}: {${name}} must be a non-empty string`);
    return name === '*' ? value.split('/').map(encodeURIComponent).join('/') : encodeURIComponent(value);
  });
}

const parameterCount = (template: string): number => template.match(PARAMETER)?.length ?? 0;

/** Marks `method` as the client's method of the operation `METHOD template` (the completeness test reads it). */
export function calls<F extends (...args: never[]) => unknown>(
  method: string,
  template: string,
  fn: F,
): F & { readonly operation: string } {
  return Object.defineProperty(fn, 'operation', { value: `${method.toUpperCase()} ${template}` }) as F & {
    readonly operation: string;
  };
}

/** The method of `METHOD template` made from `call`: it answers the body; its `withResponse` twin, the whole answer. */
export function endpoint<A extends unknown[], Data>(
  method: string,
  template: string,
  call: (...args: A) => Promise<Answer<Data>>,
): Endpoint<A, Data> {
  const data = async (...args: A) => (await call(...args)).data;
  return calls(method, template, Object.assign(data, { withResponse: call }));
}

/**
 * The method of one operation over `transport`: `(…path parameters, body, options)` when it takes a JSON body (an
 * all-optional body may be left out), `(…path parameters, query, options)` otherwise.
 */
export function operationMethod<P extends Path, M extends MethodOf<P>>(
  transport: Transport,
  method: M,
  path: P,
  flags: EndpointFlags = {},
): OperationMethod<P, M> {
  const key = `${method.toUpperCase()} ${path}`;
  const shape: { body: boolean; query: boolean } | undefined = (
    operations as Record<string, { body: boolean; query: boolean }>
  )[key];
  if (!shape) throw new Error(`${key} is not an operation of the API this client was generated from`);
  const count = parameterCount(path);
  return endpoint(method, path, (...args: unknown[]) => {
    const input = args[count];
    const options = (shape.body || shape.query ? args[count + 1] : input) as
      | (CallOptions & { query?: Record<string, unknown> })
      | undefined;
    return transport.send({
      ...options,
      method,
      path: fillPath(path, args.slice(0, count)),
      query: shape.body ? options?.query : shape.query ? (input as Record<string, unknown> | undefined) : undefined,
      body: shape.body ? { json: input ?? {} } : undefined,
      read: 'json',
      idempotent: flags.idempotent ?? false,
    });
  }) as OperationMethod<P, M>;
}

/** `op(method, path)`: the method of that operation over `transport` (see operationMethod). */
export const methodsOver =
  (transport: Transport) =>
  <P extends Path, M extends MethodOf<P>>(method: M, path: P, flags?: EndpointFlags): OperationMethod<P, M> =>
    operationMethod(transport, method, path, flags);

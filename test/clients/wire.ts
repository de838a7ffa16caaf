import type { Answer } from '../../packages/client/src/index.js';
import { memdClient } from '../support/server.js';

/**
 * Requests as the MemoryLayer TypeScript SDK and MCP server (v0.0.6) put them on the wire, so that the tests in this
 * folder send exactly what those clients send. Written from their documented behaviour, not from their code:
 * - every JSON call carries `Content-Type: application/json`, also when it has no body (GET, DELETE, bare POST);
 * - `Authorization: Bearer <key>`, `X-Session-ID` and `X-Workspace-ID` go on every call the client has them for;
 * - a body is JSON.stringify(body): fields left undefined are not sent at all;
 * - error bodies are read as `message ?? detail`, details from `details`.
 */
export interface ClientState {
  apiKey?: string;
  workspaceId?: string;
  sessionId?: string;
}

export interface WireResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  /** What the SDK shows as the error message: `message`, else `detail`, else the status text. */
  errorMessage: string | undefined;
}

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface WireCall {
  method: Method;
  path: string;
  /** Omitted: no body at all (the content type is still JSON). */
  body?: unknown;
}

const identity = (state: ClientState): Record<string, string> => ({
  ...(state.apiKey && { Authorization: `Bearer ${state.apiKey}` }),
  ...(state.sessionId && { 'X-Session-ID': state.sessionId }),
  ...(state.workspaceId && { 'X-Workspace-ID': state.workspaceId }),
});

function read<T>({ status, headers, data }: Answer<unknown>): WireResponse<T> {
  const body = data ?? '';
  const error = body as { message?: unknown; detail?: unknown } | null;
  const raw = status < 400 ? undefined : (error?.message ?? error?.detail ?? `HTTP ${status}`);
  return {
    status,
    headers,
    body: body as T,
    errorMessage: raw === undefined ? undefined : typeof raw === 'string' ? raw : JSON.stringify(raw),
  };
}

/**
 * A client on the wire: its state (key, workspace, session) and the calls it makes. The requests go through
 * memd-client's untyped `request`, which sends the headers and bytes given and nothing else.
 */
export function wireClient(baseUrl: string, state: ClientState = {}) {
  const transport = memdClient(baseUrl);
  return {
    state,
    /** A JSON call: the JSON content type always, the body only when there is one. */
    async call<T = any>({ method, path, body }: WireCall): Promise<WireResponse<T>> {
      const headers = { 'Content-Type': 'application/json', ...identity(state) };
      return read<T>(await transport.request(method, path, { headers, json: body }));
    },
    /** A call with its own body and content type (multipart uploads, NDJSON imports) or none (export downloads). */
    async send<T = any>(
      method: Method,
      path: string,
      body?: string | FormData,
      contentType?: string,
    ): Promise<WireResponse<T>> {
      const headers = { ...(contentType && { 'Content-Type': contentType }), ...identity(state) };
      return read<T>(await transport.request(method, path, { headers, body }));
    },
  };
}

export type WireClient = ReturnType<typeof wireClient>;

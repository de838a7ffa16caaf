import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import { MemdClient, MemdError, UnauthorizedError, type ClientOptions } from 'memd-client';
import type { MemoryType } from './types';

/** The API key, kept for this tab only (sessionStorage): asked once, gone when the tab closes. */
const KEY_ITEM = 'memd.apiKey';
export const storedKey = {
  get: (): string | undefined => sessionStorage.getItem(KEY_ITEM) ?? undefined,
  set: (key: string) => sessionStorage.setItem(KEY_ITEM, key),
  clear: () => sessionStorage.removeItem(KEY_ITEM),
};

/** The client of the server that served this page: the explorer uses the public API only. */
export function createClient(apiKey: string | undefined, options: Partial<ClientOptions> = {}): MemdClient {
  return new MemdClient({ baseUrl: location.origin, ...(apiKey && { apiKey }), retry: { retries: 2 }, ...options });
}

export interface Api {
  memd: MemdClient;
  /** The client with the workspace as its default (`X-Workspace-ID`). */
  in(workspaceId: string): MemdClient;
  /** A call was refused for want of a valid key: ask for one. */
  unauthorized(): void;
}

export const ApiContext = createContext<Api | null>(null);

export function useApi(): Api {
  const api = useContext(ApiContext);
  if (!api) throw new Error('useApi outside ApiContext');
  return api;
}

/** A failure in words for the page: the server's message and code when it gave them. */
export function describeError(error: unknown): string {
  if (error instanceof MemdError)
    return error.status ? `${error.message} (${error.status} ${error.code})` : error.message;
  return error instanceof Error ? error.message : String(error);
}

export const isUnauthorized = (error: unknown): boolean => error instanceof UnauthorizedError;

/** Every memory type, in the order the page lists them (a type added to the API is a type error here). */
const TYPE_ORDER: Record<MemoryType, number> = { semantic: 0, episodic: 1, procedural: 2, working: 3 };
export const MEMORY_TYPES = (Object.keys(TYPE_ORDER) as MemoryType[]).sort((a, b) => TYPE_ORDER[a] - TYPE_ORDER[b]);

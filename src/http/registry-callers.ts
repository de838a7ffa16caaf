import type { FastifyRequest } from 'fastify';
import { registryCaller, type RegistryCaller } from '../core/registries/scopes.js';
import type { CoreServices } from '../services.js';
import { objectAccess, scopedAccess } from './request-context.js';

/** How the routes of a scoped registry (skills, MCP servers) turn a request into the registry's caller. */
export interface RegistryCallers {
  /** A call the workspace scopes, by the user it names. */
  scoped(request: FastifyRequest, named: { user_id?: string | undefined }): Promise<RegistryCaller>;
  /** A call addressing one entry by id: the workspace is the entry's (or the caller's, for an entry above every workspace). */
  entry(request: FastifyRequest, id: string): Promise<RegistryCaller>;
}

export const registryCallers = (services: CoreServices, kind: 'skill' | 'mcp_server'): RegistryCallers => ({
  scoped: async (request, named) => registryCaller(await scopedAccess(services, request), named.user_id),
  entry: async (request, id) => registryCaller(await objectAccess(services, request, kind, id), undefined),
});

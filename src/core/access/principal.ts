import { AppError } from '../../errors.js';
import type { ApiKey } from '../../storage/types.js';

/** Who is calling: the admin (or anyone, in local development mode) or a key limited to some workspaces. */
export type Principal = { kind: 'admin' } | { kind: 'local' } | { kind: 'key'; key: ApiKey };

/** Whether the caller may use the workspace: the admin and local mode everywhere, a key in its workspaces. */
export const mayUse = (principal: Principal, workspaceId: string): boolean =>
  principal.kind !== 'key' || principal.key.workspaces.includes(workspaceId);

/** The check made for a workspace the caller named: naming one the key does not hold is refused outright. */
export function authorizeWorkspace(principal: Principal, workspaceId: string): void {
  if (!mayUse(principal, workspaceId))
    throw new AppError('forbidden', `this API key has no access to workspace '${workspaceId}'`);
}

export function requireAdmin(principal: Principal): void {
  if (principal.kind === 'key') throw new AppError('forbidden', 'this operation needs the admin key');
}

/** Tenant-level callers (the admin, or anyone in local mode) create workspaces; a key never does. */
export const mayCreateWorkspaces = (principal: Principal): boolean => principal.kind !== 'key';

/** The workspaces a key-holder may see; undefined for callers who see every workspace. */
export const visibleWorkspaces = (principal: Principal): readonly string[] | undefined =>
  principal.kind === 'key' ? principal.key.workspaces : undefined;

/** The workspace a key-holder means when naming none: its only workspace, if it has exactly one. */
export const defaultWorkspaceOf = (principal: Principal): string | undefined =>
  principal.kind === 'key' && principal.key.workspaces.length === 1 ? principal.key.workspaces[0] : undefined;

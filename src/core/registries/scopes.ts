import { forbidden, invalid } from '../../errors.js';
import type { RegistryViewer, ScopedOwner } from '../../storage/types.js';
import type { Access } from '../access/access.js';

/** Who calls a scoped registry: the resolved (and authorized) workspace, the user named, and what they may write. */
export interface RegistryCaller extends RegistryViewer {
  /** The admin key, or anyone in local development mode: may write entries above a workspace. */
  tenantAdmin: boolean;
}

/** The caller of a registry: its workspace, the user it names (to select user-owned entries), and whether it may write above a workspace. */
export const registryCaller = (access: Access, userId: string | undefined): RegistryCaller => ({
  workspaceId: access.workspaceId,
  userId: userId ?? null,
  tenantAdmin: access.principal.kind !== 'key',
});

/** An entry of a scoped registry as precedence sees it. */
export type Scoped<S extends string> = ScopedOwner<S> & { id: string; name: string };

export interface Ranked<T> {
  entry: T;
  /** The entry of the same name that wins over this one; null for the winner. */
  shadowedBy: T | null;
}

/** Who owns the entries of a scope; 'none' is above every workspace and user. */
export type Owners = 'workspace and user' | 'workspace' | 'user' | 'none';

const OWNER_COLUMNS: Record<Owners, { workspace: boolean; user: boolean }> = {
  'workspace and user': { workspace: true, user: true },
  workspace: { workspace: true, user: false },
  user: { workspace: false, user: true },
  none: { workspace: false, user: false },
};

/**
 * The scopes of a registry, highest precedence first, and the owners each has: a workspace, a user, both or
 * neither. Skills and MCP servers differ only in these rules; placement, visibility, access and precedence are
 * the same code (here and in ScopedRegistry, registry.ts).
 */
export class ScopeRules<S extends string> {
  constructor(
    /** Highest precedence first. */
    private readonly order: readonly S[],
    private readonly owners: Record<S, Owners>,
  ) {}

  /** Where an entry of `scope` created by the caller lives; entries above a workspace need the admin. */
  ownerFor(scope: S, caller: RegistryCaller): ScopedOwner<S> {
    const needs = OWNER_COLUMNS[this.owners[scope]];
    if (needs.user && caller.userId === null) throw invalid('/user_id', `is required for scope '${scope}'`);
    const owner = {
      scope,
      workspace_id: needs.workspace ? caller.workspaceId : null,
      user_id: needs.user ? caller.userId : null,
    };
    assertWritable(owner, caller);
    return owner;
  }

  /** Groups by name (names in order); in each group the entry of the highest scope wins, the rest are shadowed. */
  private rank<T extends Scoped<S>>(entries: readonly T[]): Array<Ranked<T>> {
    const precedence = (entry: T) => this.order.indexOf(entry.scope);
    const sorted = [...entries].sort((a, b) =>
      a.name < b.name ? -1 : a.name > b.name ? 1 : precedence(a) - precedence(b),
    );
    const ranked: Array<Ranked<T>> = [];
    let winner: T | null = null;
    for (const entry of sorted) {
      if (winner?.name !== entry.name) winner = entry;
      ranked.push({ entry, shadowedBy: winner === entry ? null : winner });
    }
    return ranked;
  }

  /**
   * A listing: the winners, or every entry with what shadows it, optionally of one scope. The scope filter applies
   * after precedence: a workspace entry shadowed by a user entry stays shadowed when listing the workspace scope.
   */
  listing<T extends Scoped<S>>(
    entries: readonly T[],
    options: { scope?: S | undefined; includeShadowed: boolean },
  ): Array<Ranked<T>> {
    return this.rank(entries).filter(
      (r) =>
        (options.includeShadowed || r.shadowedBy === null) &&
        (options.scope === undefined || r.entry.scope === options.scope),
    );
  }

  /** The winner of each name. */
  winners<T extends Scoped<S>>(entries: readonly T[]): Map<string, T> {
    return new Map(this.listing(entries, { includeShadowed: false }).map((r) => [r.entry.name, r.entry]));
  }
}

/** Entries above a workspace (user, tenant, global scopes) are written with the admin key only. */
export function assertWritable(owner: ScopedOwner, caller: RegistryCaller): void {
  if (owner.workspace_id === null && !caller.tenantAdmin)
    throw forbidden(`entries of scope '${owner.scope}' are tenant-level: changing them needs the admin key`);
}

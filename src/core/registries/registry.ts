import { conflict, notFound, type AppError } from '../../errors.js';
import type { ScopedStore, Storage } from '../../storage/types.js';
import type { WorkspaceService } from '../workspaces/service.js';
import { assertWritable, type Ranked, type RegistryCaller, type Scoped, type ScopeRules } from './scopes.js';

/**
 * A kind of scoped entry (skill, MCP server): what the generic registry needs to know of it. `S` is its scope
 * names, `E` its stored entry, `P` what a change of an entry may set.
 */
export interface RegistryKind<S extends string, E extends Scoped<S>, P> {
  /** How messages name one entry: 'skill', 'MCP server'. */
  noun: string;
  /** The noun with its indefinite article, for messages: 'a skill', 'an MCP server'. */
  aNoun: string;
  scopes: ScopeRules<S>;
  /** The kind's table in a storage or a transaction. */
  store(storage: Storage): ScopedStore<E, P>;
}

export interface RegistryDeps {
  storage: Storage;
  workspaces: WorkspaceService;
}

/**
 * One scoped registry: entries placed at a scope, seen by a caller's workspace and user, listed and resolved by
 * precedence (the higher scope shadows an entry of the same name), reached by id and changed under the scope's
 * write rule. A kind's service extends it with what is its own (a skill's files, an MCP server's secrets).
 */
export class ScopedRegistry<S extends string, E extends Scoped<S>, P> {
  constructor(
    protected readonly kind: RegistryKind<S, E, P>,
    protected readonly deps: RegistryDeps,
  ) {}

  /** The kind's table in the service's storage, or in a transaction's. */
  protected store(storage: Storage = this.deps.storage): ScopedStore<E, P> {
    return this.kind.store(storage);
  }

  /** Visible entries by name, each with the entry that shadows it (only winners unless `includeShadowed`). */
  async list(
    caller: RegistryCaller,
    options: { scope?: S | undefined; includeShadowed: boolean },
  ): Promise<Array<Ranked<E>>> {
    await this.deps.workspaces.get(caller.workspaceId);
    return this.kind.scopes.listing(await this.store().listVisible(caller), options);
  }

  /** The precedence winner of each name the caller can see. */
  async resolve(caller: RegistryCaller, names: readonly string[]): Promise<Map<string, E>> {
    await this.deps.workspaces.get(caller.workspaceId);
    return this.kind.scopes.winners(await this.store().listVisible(caller, { names }));
  }

  /** The caller's entries of these names at one place (what an import there replaces), by name. */
  protected async at(caller: RegistryCaller, scope: S, names: readonly string[]): Promise<Map<string, E>> {
    return new Map((await this.store().listVisible(caller, { names, scope })).map((entry) => [entry.name, entry]));
  }

  /**
   * An entry reached by id must be in the caller's workspace or above all workspaces; any other is reported
   * missing, as if it did not exist. User ids are claims, not credentials: they choose entries, they do not guard them.
   */
  async get(caller: RegistryCaller, id: string): Promise<E> {
    await this.deps.workspaces.get(caller.workspaceId);
    return this.reachable(caller, id, await this.store().get(id));
  }

  private reachable(caller: RegistryCaller, id: string, entry: E | null): E {
    if (!entry || (entry.workspace_id !== null && entry.workspace_id !== caller.workspaceId))
      throw notFound(this.kind.noun, id);
    return entry;
  }

  async delete(caller: RegistryCaller, id: string): Promise<void> {
    await this.writable(caller, id);
    if (!(await this.store().delete(id))) throw notFound(this.kind.noun, id);
  }

  /** The entry, if the caller may change it. */
  protected async writable(caller: RegistryCaller, id: string): Promise<E> {
    const entry = await this.get(caller, id);
    assertWritable(entry, caller);
    return entry;
  }

  /**
   * A change of an entry the caller may change, made in one transaction with the entry read there and held until
   * the commit: two changes of one entry at once apply one after the other. A change rebuilds part of the entry
   * from what it read (a skill's SKILL.md from its fields, an MCP server's sealed env and headers together); read
   * before the other change committed, the later write undid the earlier one's (PostgreSQL, every round of a
   * probe).
   */
  protected async change<T>(
    caller: RegistryCaller,
    id: string,
    work: (entry: E, tx: Storage) => Promise<T>,
  ): Promise<T> {
    await this.deps.workspaces.get(caller.workspaceId);
    return this.deps.storage.transaction(async (tx) => {
      const entry = this.reachable(caller, id, await this.store(tx).getForChange(id));
      assertWritable(entry, caller);
      return work(entry, tx);
    });
  }

  /** Stores a change of an entry (in a transaction's storage when given); it is gone if deleted meanwhile. */
  protected async save(id: string, patch: P, storage?: Storage): Promise<E> {
    const updated = await this.store(storage).update(id, patch);
    if (!updated) throw notFound(this.kind.noun, id);
    return updated;
  }

  /** The error for a name already taken at its scope. */
  protected taken(name: string, scope: S): AppError {
    return conflict(`${this.kind.aNoun} named '${name}' already exists in scope '${scope}'`);
  }
}

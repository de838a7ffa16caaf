import { conflict } from '../../errors.js';
import { MCP_SCOPE_NAMES } from '../../schemas/mcp-server.js';
import type {
  JsonObject,
  McpScope,
  McpServerEntry,
  McpServerPatch,
  ScopedOwner,
  SourceMode,
  Storage,
} from '../../storage/types.js';
import { isoNow, type Clock } from '../clock.js';
import { newId } from '../ids.js';
import { ScopedRegistry, type RegistryDeps, type RegistryKind } from '../registries/registry.js';
import { ScopeRules, type RegistryCaller } from '../registries/scopes.js';
import { decideSync } from '../registries/sync.js';
import type { SecretBox } from '../secrets/secret-box.js';
import { DEFAULT_TENANT } from '../workspaces/service.js';
import { configFileServer, readConfigFile, type ConfigFile, type ConfigFileServer } from './config-file.js';
import { connectionHash, connectionOf, type Connection, type ConnectionInput } from './connection.js';
import { hasMask, SealedConnections, type McpServerView } from './sealed-connection.js';

/** MCP servers as a scoped registry: their scopes in precedence order (src/schemas/mcp-server.ts), and who owns the entries of each. */
const MCP_SERVERS: RegistryKind<McpScope, McpServerEntry, McpServerPatch> = {
  noun: 'MCP server',
  aNoun: 'an MCP server',
  scopes: new ScopeRules(MCP_SCOPE_NAMES, {
    local: 'workspace and user',
    project: 'workspace',
    user: 'user',
    global: 'none',
  }),
  store: (storage) => storage.mcpServers,
};

interface Details {
  description?: string | null | undefined;
  source_mode?: SourceMode | undefined;
  enabled?: boolean | undefined;
  metadata?: JsonObject | undefined;
}

export interface CreateMcpServerInput extends ConnectionInput, Details {
  name: string;
  scope?: McpScope | undefined;
}

export type UpdateMcpServerInput = ConnectionInput & Details;

export interface ImportReport {
  created: string[];
  updated: string[];
  skipped: string[];
  entries: McpServerEntry[];
}

export interface McpSyncRequest {
  config: ConnectionInput;
  /** When the client's copy last changed. */
  modified_at: string;
  /** `synced_at` of the client's last completed sync of this entry; null: never. */
  since: string | null;
}

export interface McpSyncReport {
  action: 'in_sync' | 'pushed' | 'pulled';
  conflict: boolean;
  entry: McpServerEntry;
  /** The server's connection, revealed, when the client must take it (`pulled`). */
  config: Connection | null;
  synced_at: string;
}

interface McpDeps extends RegistryDeps {
  secrets: SecretBox;
  clock: Clock;
}

/**
 * The MCP server registry: a scoped registry (ScopedRegistry: list, resolve, get, delete by precedence; a disabled
 * winner still wins: it says "not here") whose env and header values are sealed at rest, imported and exported as
 * the `mcpServers` configuration file, and synced one entry at a time.
 */
export class McpServerService extends ScopedRegistry<McpScope, McpServerEntry, McpServerPatch> {
  private readonly sealed: SealedConnections;

  constructor(protected override readonly deps: McpDeps) {
    super(MCP_SERVERS, deps);
    this.sealed = new SealedConnections(deps.secrets);
  }

  async create(caller: RegistryCaller, input: CreateMcpServerInput): Promise<McpServerEntry> {
    await this.deps.workspaces.get(caller.workspaceId);
    const connection = connectionOf(input, null);
    const entry = this.newEntry(
      this.kind.scopes.ownerFor(input.scope ?? 'project', caller),
      input.name,
      connection,
      input,
    );
    if (!(await this.deps.storage.mcpServers.create(entry))) throw this.taken(entry.name, entry.scope);
    return entry;
  }

  async update(caller: RegistryCaller, id: string, patch: UpdateMcpServerInput): Promise<McpServerEntry> {
    return this.change(caller, id, (entry, tx) => {
      // env and headers are sealed together: changing either needs the other's stored values.
      const reseal = patch.env !== undefined || patch.headers !== undefined;
      const connection = connectionOf(patch, this.sealed.connection(entry, reseal));
      const changed = { ...this.sealed.changed(entry.id, connection, reseal), ...details(patch) };
      return this.save(entry.id, { ...changed, updated_at: isoNow(this.deps.clock) }, tx);
    });
  }

  /**
   * Creates or updates (`onConflict: 'update'`) or leaves (`'skip'`) the entry of each server of a configuration
   * file at one scope; a server of the file is whole (what it leaves out, it does not have; masked secrets keep the
   * stored ones). Every server is checked before anything is written; the writes share one transaction.
   */
  async import(
    caller: RegistryCaller,
    file: ConfigFile,
    options: { scope: McpScope; onConflict: 'update' | 'skip' },
  ): Promise<ImportReport> {
    await this.deps.workspaces.get(caller.workspaceId);
    const owner = this.kind.scopes.ownerFor(options.scope, caller);
    const servers = readConfigFile(file);
    const existing = await this.at(
      caller,
      owner.scope,
      servers.map((s) => s.name),
    );
    const report: ImportReport = { created: [], updated: [], skipped: [], entries: [] };
    const writes: Array<(tx: Storage) => Promise<McpServerEntry>> = [];
    const now = isoNow(this.deps.clock);
    for (const server of servers) {
      const current = existing.get(server.name);
      const pointer = `/mcpServers/${server.name}`;
      const wanted = { description: server.description, enabled: server.enabled };
      if (!current) {
        const entry = this.newEntry(owner, server.name, connectionOf(server.connection, null, pointer), wanted);
        report.created.push(server.name);
        writes.push(async (tx) => {
          if (!(await tx.mcpServers.create(entry)))
            throw conflict(`an MCP server named '${entry.name}' was created meanwhile`);
          return entry;
        });
      } else if (options.onConflict === 'skip') {
        report.skipped.push(server.name);
      } else {
        const connection = connectionOf(
          server.connection,
          null,
          pointer,
          hasMask(server.connection) ? this.sealed.connection(current) : null,
        );
        const patch: McpServerPatch = {
          ...this.sealed.fields(current.id, connection),
          ...details(wanted),
          updated_at: now,
        };
        report.updated.push(server.name);
        writes.push((tx) => this.save(current.id, patch, tx));
      }
    }
    report.entries = await this.deps.storage.transaction(async (tx) => {
      const entries: McpServerEntry[] = [];
      for (const write of writes) entries.push(await write(tx));
      return entries;
    });
    return report;
  }

  /** The winners visible to the caller as a configuration file; secrets masked unless `reveal`. */
  async export(
    caller: RegistryCaller,
    options: { scope?: McpScope | undefined; reveal: boolean },
  ): Promise<ConfigFile> {
    const ranked = await this.list(caller, { scope: options.scope, includeShadowed: false });
    const mcpServers: Record<string, ConfigFileServer> = {};
    for (const { entry } of ranked) mcpServers[entry.name] = configFileServer(this.view(entry, options.reveal));
    return { mcpServers };
  }

  /**
   * Two-way sync of one entry's connection with the client's copy (see `decideSync`): the client's config is
   * stored (`pushed`), or the server's is handed back revealed (`pulled`), or they are equal (`in_sync`).
   */
  async sync(caller: RegistryCaller, id: string, request: McpSyncRequest): Promise<McpSyncReport> {
    const now = isoNow(this.deps.clock);
    return this.change(caller, id, async (entry, tx) => {
      const stored = this.sealed.connection(entry);
      // The client's copy is whole: what it leaves out, it does not have (only masked secrets refer to the server's).
      const offered = connectionOf(request.config, null, '/config', stored);
      const decision = decideSync(
        { sha256: connectionHash(offered), modifiedAt: request.modified_at },
        { sha256: connectionHash(stored), modifiedAt: entry.updated_at },
        request.since,
        entry.source_mode,
      );
      const pushed = decision.action === 'upload';
      const patch: McpServerPatch = pushed
        ? { ...this.sealed.fields(id, offered), updated_at: now, last_synced_at: now }
        : { last_synced_at: now };
      const saved = await this.save(entry.id, patch, tx);
      const action = pushed ? 'pushed' : decision.action === 'download' ? 'pulled' : 'in_sync';
      return {
        action,
        conflict: decision.conflict,
        entry: saved,
        config: action === 'pulled' ? stored : null,
        synced_at: now,
      };
    });
  }

  /** The API view of an entry: secrets revealed (decrypted) only when asked. */
  view(entry: McpServerEntry, reveal: boolean): McpServerView {
    return this.sealed.view(entry, reveal);
  }

  private newEntry(owner: ScopedOwner<McpScope>, name: string, connection: Connection, input: Details): McpServerEntry {
    const id = newId('mcp');
    const now = isoNow(this.deps.clock);
    return {
      id,
      tenant_id: DEFAULT_TENANT,
      ...owner,
      name,
      description: input.description ?? null,
      ...this.sealed.fields(id, connection),
      source_mode: input.source_mode ?? 'server',
      enabled: input.enabled ?? true,
      metadata: input.metadata ?? {},
      last_synced_at: null,
      created_at: now,
      updated_at: now,
    };
  }
}

const details = (input: Details): Partial<McpServerEntry> => ({
  description: input.description,
  source_mode: input.source_mode,
  enabled: input.enabled,
  metadata: input.metadata,
});

export type { McpServerEntry } from '../../storage/types.js';

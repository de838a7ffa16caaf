import { notFound } from '../../errors.js';
import type { DataProvider, DataProviderType, JsonObject, Storage } from '../../storage/types.js';
import { isoNow, type Clock } from '../clock.js';
import { newId } from '../ids.js';
import type { SecretBox } from '../secrets/secret-box.js';
import type { WorkspaceService } from '../workspaces/service.js';
import type { DataProviderSyncers, DataProviderSyncResult } from './sync.js';

export interface DataProviderInput {
  name: string;
  provider_type: DataProviderType;
  connection_args?: JsonObject | undefined;
  encrypted_args?: JsonObject | undefined;
  schedule?: string | undefined;
  metadata?: JsonObject | undefined;
}

export interface DataProviderPatch {
  name?: string | undefined;
  provider_type?: DataProviderType | undefined;
  connection_args?: JsonObject | undefined;
  /** Replaces the secrets; null removes them. */
  encrypted_args?: JsonObject | null | undefined;
  schedule?: string | null | undefined;
  metadata?: JsonObject | undefined;
}

/** A provider as the API shows it: `encrypted_args` never, only whether it is set. */
export type DataProviderView = Omit<DataProvider, 'sealed_args'> & { has_encrypted_args: boolean };

export interface DataProviderSyncReport extends DataProviderSyncResult {
  provider: DataProvider;
  synced_at: string;
}

interface DataProviderDeps {
  storage: Storage;
  workspaces: WorkspaceService;
  secrets: SecretBox;
  clock: Clock;
  syncers: DataProviderSyncers;
}

/** Data-provider records of a workspace. `encrypted_args` is sealed at rest and never leaves the server. */
export class DataProviderService {
  constructor(private readonly deps: DataProviderDeps) {}

  async create(workspaceId: string, input: DataProviderInput): Promise<DataProvider> {
    await this.deps.workspaces.get(workspaceId);
    const now = isoNow(this.deps.clock);
    const id = newId('dp');
    const provider: DataProvider = {
      id,
      workspace_id: workspaceId,
      name: input.name,
      provider_type: input.provider_type,
      connection_args: input.connection_args ?? {},
      sealed_args: this.seal(id, input.encrypted_args ?? null),
      schedule: input.schedule ?? null,
      metadata: input.metadata ?? {},
      last_synced_at: null,
      created_at: now,
      updated_at: now,
    };
    await this.deps.storage.dataProviders.create(provider);
    return provider;
  }

  async list(
    workspaceId: string,
    page: { limit: number; offset: number },
  ): Promise<{ providers: DataProvider[]; total: number }> {
    await this.deps.workspaces.get(workspaceId);
    return this.deps.storage.dataProviders.list(workspaceId, page);
  }

  async get(workspaceId: string, id: string): Promise<DataProvider> {
    await this.deps.workspaces.get(workspaceId);
    const provider = await this.deps.storage.dataProviders.get(workspaceId, id);
    if (!provider) throw notFound('data provider', id);
    return provider;
  }

  async update(workspaceId: string, id: string, patch: DataProviderPatch): Promise<DataProvider> {
    await this.get(workspaceId, id);
    const { encrypted_args, ...rest } = patch;
    const sealed = encrypted_args === undefined ? {} : { sealed_args: this.seal(id, encrypted_args) };
    return this.save(workspaceId, id, { ...rest, ...sealed, updated_at: isoNow(this.deps.clock) });
  }

  /** Removes the record only: documents it ingested stay. */
  async delete(workspaceId: string, id: string): Promise<void> {
    await this.deps.workspaces.get(workspaceId);
    if (!(await this.deps.storage.dataProviders.delete(workspaceId, id))) throw notFound('data provider', id);
  }

  /** One sync by the provider type's syncer (see `DataProviderSync`). */
  async sync(workspaceId: string, id: string): Promise<DataProviderSyncReport> {
    const provider = await this.get(workspaceId, id);
    const sealed = provider.sealed_args;
    const result = await this.deps.syncers[provider.provider_type].sync(provider, () =>
      sealed === null ? null : this.deps.secrets.open<JsonObject>(sealed, secretContext(id)),
    );
    const now = isoNow(this.deps.clock);
    return { ...result, provider: await this.save(workspaceId, id, { last_synced_at: now }), synced_at: now };
  }

  view({ sealed_args, ...provider }: DataProvider): DataProviderView {
    return { ...provider, has_encrypted_args: sealed_args !== null };
  }

  private seal(id: string, args: JsonObject | null): string | null {
    return args === null ? null : this.deps.secrets.seal(args, secretContext(id));
  }

  private async save(workspaceId: string, id: string, patch: Partial<DataProvider>): Promise<DataProvider> {
    const updated = await this.deps.storage.dataProviders.update(workspaceId, id, patch);
    if (!updated) throw notFound('data provider', id);
    return updated;
  }
}

/** Sealed args are bound to their provider. */
const secretContext = (id: string): string => `data_providers/${id}`;

import type { DataProvider, DataProviderType, JsonObject } from '../../storage/types.js';

/** What one sync of a provider brought in. */
export interface DataProviderSyncResult {
  documents: JsonObject[];
}

/**
 * How a provider type fetches documents into its workspace. The sync route calls the one registered for the
 * provider's type; `encryptedArgs` decrypts the provider's secrets if the sync needs them. A new provider type
 * (a folder, a bucket, a wiki) is one implementation of this, registered in services.ts.
 */
export interface DataProviderSync {
  sync(provider: DataProvider, encryptedArgs: () => JsonObject | null): Promise<DataProviderSyncResult>;
}

export type DataProviderSyncers = Record<DataProviderType, DataProviderSync>;

/**
 * The `local` provider type, as docs/specification.md §4 defines it for the open edition: a one-off sync does nothing and returns
 * an empty list. (Documents are ingested through /v1/documents.)
 */
export const emptyLocalSync: DataProviderSync = {
  sync: async () => ({ documents: [] }),
};

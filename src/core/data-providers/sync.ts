import type { DataProvider, DataProviderType, JsonObject } from '../../storage/types.js';

/** What one sync of a provider brought in. The documents feature gives the entries their shape. */
export interface DataProviderSyncResult {
  documents: JsonObject[];
}

/**
 * SEAM for the documents feature: how a provider type fetches documents into its workspace. The sync route calls
 * the one registered for the provider's type; `encryptedArgs` decrypts the provider's secrets if the sync needs them.
 */
export interface DataProviderSync {
  sync(provider: DataProvider, encryptedArgs: () => JsonObject | null): Promise<DataProviderSyncResult>;
}

export type DataProviderSyncers = Record<DataProviderType, DataProviderSync>;

/**
 * The `local` provider until documents land: it fetches nothing and reports an empty list, which is what the spec
 * says the open edition does. Replace it in services.ts with the documents feature's implementation.
 */
export const emptyLocalSync: DataProviderSync = {
  sync: async () => ({ documents: [] }),
};

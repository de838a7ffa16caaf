import { Type } from 'typebox';
import { JsonObject, NonBlank, Nullable, StringEnum, Timestamp, WorkspaceIdField } from './common.js';
import { Paging } from './registry.js';

/** The open edition offers the `local` provider only. */
const ProviderType = StringEnum(['local'] as const, { description: 'only `local` in this edition' });
const Schedule = Type.String({ minLength: 1, maxLength: 200, description: 'stored as given (e.g. a cron expression); this edition runs no scheduler' });
const EncryptedArgs = Type.Unsafe<Record<string, unknown>>({ type: 'object', additionalProperties: true, description: 'secrets (credentials): encrypted at rest, never returned' });

export const DataProvider = Type.Object({
  id: Type.String({ description: 'dp_…' }),
  workspace_id: Type.String(),
  name: Type.String(),
  provider_type: ProviderType,
  connection_args: JsonObject,
  has_encrypted_args: Type.Boolean({ description: 'whether encrypted_args is set; its value is never returned' }),
  schedule: Nullable(Type.String()),
  metadata: JsonObject,
  last_synced_at: Nullable(Timestamp),
  created_at: Timestamp,
  updated_at: Timestamp,
});

export const DataProviderEnvelope = Type.Object({ data_provider: DataProvider });

export const CreateDataProviderBody = Type.Object(
  {
    name: NonBlank({ maxLength: 200 }),
    provider_type: ProviderType,
    connection_args: Type.Optional(JsonObject),
    encrypted_args: Type.Optional(EncryptedArgs),
    schedule: Type.Optional(Schedule),
    metadata: Type.Optional(JsonObject),
    workspace_id: WorkspaceIdField,
  },
  { additionalProperties: false },
);

export const UpdateDataProviderBody = Type.Object(
  {
    name: Type.Optional(NonBlank({ maxLength: 200 })),
    provider_type: Type.Optional(ProviderType),
    connection_args: Type.Optional(JsonObject),
    encrypted_args: Type.Optional(Nullable(EncryptedArgs)),
    schedule: Type.Optional(Nullable(Schedule)),
    metadata: Type.Optional(JsonObject),
  },
  { additionalProperties: false, minProperties: 1, description: 'omitted fields stay; null clears encrypted_args or schedule' },
);

export const ListDataProvidersQuery = Type.Object({ workspace_id: WorkspaceIdField, ...Paging }, { additionalProperties: false });

export const DataProviderParams = Type.Object({ provider_id: Type.String({ minLength: 1, maxLength: 256 }) });

export const DataProviderSyncResponse = Type.Object({
  provider_id: Type.String(),
  workspace_id: Type.String(),
  provider_type: ProviderType,
  documents: Type.Array(JsonObject, { description: 'what the sync brought in; the local provider of this edition brings nothing yet' }),
  synced_at: Timestamp,
  data_provider: DataProvider,
});

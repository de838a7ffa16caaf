import { Type } from 'typebox';
import { DataProviderRecord, DataProviderTypeField as ProviderType } from '../../schemas/data-provider.js';
import { JsonObject, NonBlank, Nullable, Timestamp, WorkspaceIdField } from './common.js';
import { Paging } from './registry.js';

const Schedule = Type.String({
  minLength: 1,
  maxLength: 200,
  description: 'stored as given (e.g. a cron expression); this edition runs no scheduler',
});
const EncryptedArgs = Type.Unsafe<Record<string, unknown>>({
  type: 'object',
  additionalProperties: true,
  description: 'secrets (credentials): encrypted at rest, never returned',
});

const { sealed_args: _sealed, ...shownFields } = DataProviderRecord.properties;

/** A data provider as stored (src/schemas/data-provider.ts), with whether its secrets are set instead of them. */
export const DataProvider = Type.Object(
  {
    ...shownFields,
    has_encrypted_args: Type.Boolean({ description: 'whether encrypted_args is set; its value is never returned' }),
  },
  { title: 'DataProvider' },
);

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
  {
    additionalProperties: false,
    minProperties: 1,
    description: 'omitted fields stay; null clears encrypted_args or schedule',
  },
);

export const ListDataProvidersQuery = Type.Object(
  { workspace_id: WorkspaceIdField, ...Paging },
  { additionalProperties: false },
);

export const DataProviderParams = Type.Object({ provider_id: Type.String({ minLength: 1, maxLength: 256 }) });

export const DataProviderSyncResponse = Type.Object({
  provider_id: Type.String(),
  workspace_id: Type.String(),
  provider_type: ProviderType,
  documents: Type.Array(JsonObject, {
    description: 'what the sync brought in; the local provider of this edition brings nothing yet',
  }),
  synced_at: Timestamp,
  data_provider: DataProvider,
});

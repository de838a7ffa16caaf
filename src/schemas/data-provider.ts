import { Type, type Static } from 'typebox';
import { JsonObject, Nullable, StringEnum, Timestamp } from './primitives.js';

/** The open edition offers the `local` provider only. */
export const DATA_PROVIDER_TYPES = ['local'] as const;
export type DataProviderType = (typeof DATA_PROVIDER_TYPES)[number];

export const DataProviderTypeField = StringEnum(DATA_PROVIDER_TYPES, { description: 'only `local` in this edition' });

/**
 * A data provider of a workspace as stored, declared once; the API shows it without `sealed_args`, saying only
 * whether it is set (src/http/schemas/data-provider.ts).
 */
export const DataProviderRecord = Type.Object({
  id: Type.String({ description: 'dp_…' }),
  workspace_id: Type.String(),
  name: Type.String(),
  provider_type: DataProviderTypeField,
  connection_args: JsonObject,
  sealed_args: Nullable(
    Type.String({
      description: '`encrypted_args` sealed with the node’s secret key; null when not set. Never returned by the API',
    }),
  ),
  schedule: Nullable(Type.String()),
  metadata: JsonObject,
  last_synced_at: Nullable(Timestamp),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type DataProvider = Static<typeof DataProviderRecord>;

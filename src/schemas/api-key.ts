import { Type, type Static } from 'typebox';
import { Nullable, Timestamp } from './primitives.js';

/** An API key as stored, declared once; the API shows it without `key_hash` (src/http/schemas/api-key.ts). */
export const ApiKeyRecord = Type.Object({
  id: Type.String(),
  name: Type.String(),
  key_hash: Type.String({ description: 'hex SHA-256 of the secret; the secret itself is never stored' }),
  key_prefix: Type.String({ description: 'first characters of the secret, to tell keys apart in listings' }),
  workspaces: Type.Array(Type.String()),
  created_at: Timestamp,
  last_used_at: Nullable(Timestamp),
});
export type ApiKey = Static<typeof ApiKeyRecord>;

import { Type } from 'typebox';
import { ApiKeyRecord } from '../../schemas/api-key.js';
import { Identifier, NonBlank, Timestamp } from './common.js';

export const CreateApiKeyBody = Type.Object(
  {
    name: NonBlank({ maxLength: 200 }),
    workspaces: Type.Array(Identifier('a workspace the key may use'), { minItems: 1, maxItems: 1000 }),
  },
  { additionalProperties: false },
);

export const IssuedApiKey = Type.Object({
  id: Type.String(),
  key: Type.String({ description: 'the secret; shown only in this response' }),
  name: Type.String(),
  workspaces: Type.Array(Type.String()),
  created_at: Timestamp,
});

/** An API key as stored (src/schemas/api-key.ts), without the hash of its secret. */
export const ApiKeyInfo = Type.Omit(ApiKeyRecord, ['key_hash'], { title: 'ApiKey' });

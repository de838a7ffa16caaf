import { Type } from 'typebox';
import { Identifier, NonBlank, Nullable, Timestamp } from './common.js';

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

export const ApiKeyInfo = Type.Object({
  id: Type.String(),
  name: Type.String(),
  key_prefix: Type.String(),
  workspaces: Type.Array(Type.String()),
  created_at: Timestamp,
  last_used_at: Nullable(Timestamp),
});

import { resolve } from 'node:path';
import { ConfigError, flag, setting, text, type Env } from '../setting.js';
import { dataDirOf } from './storage.js';

export const AUTH = {
  adminKey: text({
    name: 'MEMD_ADMIN_KEY',
    accepts: 'secret',
    meaning: 'unset: local development, no auth. Set: every `/v1` route needs `Authorization: Bearer <key>`',
  }),
};

export const WORKSPACES = {
  autoCreate: flag({
    name: 'MEMD_WORKSPACE_AUTO_CREATE',
    default: true,
    meaning:
      "a workspace a request names (body or query `workspace_id`, `X-Workspace-ID`) that does not exist yet is created on that first use, when the caller may create workspaces (no auth, or the admin key; a workspace key never creates). `false`: only `_default` and a new session's workspace are created by use; any other must be created with `POST /v1/workspaces` first (writes to an absent one answer 404)",
  }),
};

/** Where the key that seals MCP env values and data-provider `encrypted_args` comes from. */
export interface SecretsConfig {
  /** MEMD_SECRET_KEY decoded: 32 bytes. */
  key: Buffer | undefined;
  /** Created once (0600) when no key is given and the engine is SQLite; never in the database. */
  keyFile: string;
}

/** A 32-byte key written as 64 hex digits or base64 (standard or URL-safe). */
function secretKey(raw: string, name: string): Buffer {
  const decoded = /^[0-9a-f]{64}$/i.test(raw)
    ? Buffer.from(raw, 'hex')
    : /^[A-Za-z0-9+/_-]+={0,2}$/.test(raw)
      ? Buffer.from(raw, 'base64')
      : undefined;
  if (decoded?.length !== 32)
    throw new ConfigError(
      `${name} must be 32 bytes written as 64 hex digits or base64 (e.g. \`openssl rand -base64 32\`)`,
    );
  return decoded;
}

export const SECRETS = {
  key: setting({
    name: 'MEMD_SECRET_KEY',
    accepts: '32 bytes: 64 hex digits or base64',
    meaning:
      'seals MCP env/header values and data-provider `encrypted_args` (AES-256-GCM). Unset: SQLite creates `MEMD_DATA_DIR/secret.key` (0600) once; Postgres has no key and answers 503 to what needs one — set it on every node',
    parse: secretKey,
  }),
};

export const secretsConfig = (env: Env): SecretsConfig => ({
  key: SECRETS.key.read(env),
  keyFile: resolve(dataDirOf(env), 'secret.key'),
});

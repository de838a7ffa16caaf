import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { SecretsConfig } from '../../config.js';
import { SecretBox } from './secret-box.js';

const KEY_BYTES = 32;

/**
 * The secret box of this node. MEMD_SECRET_KEY wins. Without it, an embedded (SQLite) node keeps its key in a file
 * beside the database, created once with 0600 permissions; a Postgres node has none, because every node must
 * share one key and the key must never live in the database it protects: operations that need it answer 503.
 */
export function openSecretBox(config: SecretsConfig, dialect: 'sqlite' | 'postgres'): SecretBox {
  if (config.key) return new SecretBox(config.key);
  if (dialect === 'postgres') {
    return new SecretBox(
      null,
      'MEMD_SECRET_KEY is not set; with PostgreSQL all nodes must share one key, so set it to 32 random bytes (base64 or hex)',
    );
  }
  return new SecretBox(readOrCreateKeyFile(config.keyFile));
}

function readOrCreateKeyFile(path: string): Buffer {
  try {
    writeKeyFile(path);
  } catch (error) {
    // Another process (or an earlier start) created it first: use that one.
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const key = Buffer.from(readFileSync(path, 'utf8').trim(), 'base64');
  if (key.length !== KEY_BYTES) throw new Error(`the secret key file ${path} does not hold ${KEY_BYTES} base64 bytes`);
  return key;
}

function writeKeyFile(path: string): void {
  mkdirSync(dirname(path), { recursive: true });
  // `wx`: never overwrite a key that sealed existing secrets.
  writeFileSync(path, `${randomBytes(KEY_BYTES).toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
}

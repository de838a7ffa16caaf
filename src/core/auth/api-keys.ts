import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { AppError, notFound } from '../../errors.js';
import type { ApiKey, Storage } from '../../storage/types.js';
import { isoNow, type Clock } from '../clock.js';
import { newId } from '../ids.js';
import type { Principal } from '../access/principal.js';

export interface IssuedKey {
  id: string;
  /** The secret: shown once, at creation; only its hash is stored. */
  key: string;
  name: string;
  workspaces: string[];
  created_at: string;
}

const hashSecret = (secret: string): string => createHash('sha256').update(secret, 'utf8').digest('hex');

/** Bearer-key authentication. Without an admin key the service runs in local-development mode (no auth). */
export class ApiKeyService {
  private readonly adminKeyHash: Buffer | null;

  constructor(
    private readonly storage: Storage,
    private readonly clock: Clock,
    adminKey: string | undefined,
  ) {
    this.adminKeyHash = adminKey ? Buffer.from(hashSecret(adminKey), 'hex') : null;
  }

  get authRequired(): boolean {
    return this.adminKeyHash !== null;
  }

  /** The principal behind an Authorization header value; 401 when absent or unknown (in production mode). */
  async authenticate(bearer: string | undefined): Promise<Principal> {
    if (!this.adminKeyHash) return { kind: 'local' };
    if (!bearer) throw new AppError('unauthorized', 'missing API key: send Authorization: Bearer <key>');
    const hash = Buffer.from(hashSecret(bearer), 'hex');
    if (timingSafeEqual(hash, this.adminKeyHash)) return { kind: 'admin' };
    const key = await this.storage.apiKeys.findByHash(hash.toString('hex'));
    if (!key) throw new AppError('unauthorized', 'invalid API key');
    // Best effort: a lost last-used timestamp must not fail the request.
    this.storage.apiKeys.touch(key.id, isoNow(this.clock)).catch(() => undefined);
    return { kind: 'key', key };
  }

  async issue(input: { name: string; workspaces: string[] }): Promise<IssuedKey> {
    const secret = `memd_${randomBytes(24).toString('base64url')}`;
    const record: ApiKey = {
      id: newId('key'),
      name: input.name,
      key_hash: hashSecret(secret),
      key_prefix: secret.slice(0, 9),
      workspaces: [...new Set(input.workspaces)],
      created_at: isoNow(this.clock),
      last_used_at: null,
    };
    await this.storage.apiKeys.create(record);
    return {
      id: record.id,
      key: secret,
      name: record.name,
      workspaces: record.workspaces,
      created_at: record.created_at,
    };
  }

  list(): Promise<ApiKey[]> {
    return this.storage.apiKeys.list();
  }

  async revoke(id: string): Promise<void> {
    if (!(await this.storage.apiKeys.delete(id))) throw notFound('API key', id);
  }
}

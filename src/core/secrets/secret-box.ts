import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { AppError } from '../../errors.js';

const ALGORITHM = 'aes-256-gcm';
const IV_BYTES = 12;
const TAG_BYTES = 16;
/** Format tag of a sealed value: a later key rotation or algorithm change can tell old values apart. */
const VERSION = 'v1';

/** What a masked secret looks like in every response that does not reveal it. */
export const MASK = '********';

/** Each key of a secret map, with its value masked. */
export const masked = (keys: readonly string[]): Record<string, string> =>
  Object.fromEntries(keys.map((key) => [key, MASK]));

/**
 * AES-256-GCM over JSON values. A sealed value is bound to its `context` (the record it belongs to) as
 * additional authenticated data, so a value copied into another row does not open. Secrets never appear in
 * errors or logs.
 */
export class SecretBox {
  constructor(
    private readonly key: Buffer | null,
    /** Why there is no key, said to whoever needs one. */
    private readonly missingKeyReason = 'no secret key is configured',
  ) {}

  get available(): boolean {
    return this.key !== null;
  }

  seal(value: unknown, context: string): string {
    const key = this.requireKey();
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv(ALGORITHM, key, iv).setAAD(Buffer.from(context, 'utf8'));
    const body = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final()]);
    return `${VERSION}.${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64')}`;
  }

  open<T>(sealed: string, context: string): T {
    const key = this.requireKey();
    const [version, payload] = sealed.split('.', 2);
    try {
      if (version !== VERSION || payload === undefined) throw new Error(`unknown format '${version}'`);
      const bytes = Buffer.from(payload, 'base64');
      const decipher = createDecipheriv(ALGORITHM, key, bytes.subarray(0, IV_BYTES)).setAAD(
        Buffer.from(context, 'utf8'),
      );
      decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      const plain = Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]);
      return JSON.parse(plain.toString('utf8')) as T;
    } catch {
      // Not the client's fault and not a bug: the key changed since the value was sealed (or the row was copied).
      throw new AppError(
        'secrets_unavailable',
        'a stored secret cannot be decrypted with the configured key (was MEMD_SECRET_KEY or the key file changed?)',
      );
    }
  }

  private requireKey(): Buffer {
    if (!this.key)
      throw new AppError('secrets_unavailable', `secrets cannot be stored or read: ${this.missingKeyReason}`);
    return this.key;
  }
}

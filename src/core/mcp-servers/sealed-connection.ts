import type { McpServerEntry, McpServerPatch } from '../../storage/types.js';
import { MASK, masked, type SecretBox } from '../secrets/secret-box.js';
import type { Connection, ConnectionInput, StringMap } from './connection.js';

/** An entry as the API shows it: env and headers masked, or revealed. */
export type McpServerView = Omit<McpServerEntry, 'env_keys' | 'header_keys' | 'sealed_secrets'> & {
  env: StringMap;
  headers: StringMap;
};

type Secrets = { env: StringMap; headers: StringMap };

/** The fields of an entry that hold its connection. */
type StoredConnection = Pick<
  McpServerEntry,
  'transport' | 'command' | 'args' | 'url' | 'env_keys' | 'header_keys' | 'sealed_secrets'
>;

/**
 * An MCP server's connection as stored: everything in clear but the env and header values, which are sealed
 * together, bound to their entry, and opened only when a caller is to see them (or a change needs them).
 */
export class SealedConnections {
  constructor(private readonly box: SecretBox) {}

  /** The stored form of a connection, its secrets sealed. */
  fields(id: string, connection: Connection): StoredConnection {
    return { ...reachOf(connection), sealed_secrets: this.seal(id, connection) };
  }

  /** The stored form of a changed connection; its secrets are sealed again when they changed (else they stay as sealed). */
  changed(id: string, connection: Connection, reseal: boolean): McpServerPatch {
    return reseal ? this.fields(id, connection) : reachOf(connection);
  }

  /** The stored connection; its secrets are decrypted only when `withSecrets` (they need the key). */
  connection(entry: McpServerEntry, withSecrets = true): Connection {
    const secrets = withSecrets
      ? this.open(entry)
      : { env: masked(entry.env_keys), headers: masked(entry.header_keys) };
    return { transport: entry.transport, command: entry.command, args: entry.args, url: entry.url, ...secrets };
  }

  /** The API view of an entry: secrets revealed (decrypted) only when asked. */
  view(entry: McpServerEntry, reveal: boolean): McpServerView {
    const { env_keys, header_keys, sealed_secrets: _sealed, ...rest } = entry;
    const secrets = reveal ? this.open(entry) : { env: masked(env_keys), headers: masked(header_keys) };
    return { ...rest, ...secrets };
  }

  private seal(id: string, { env, headers }: Connection): string | null {
    if (Object.keys(env).length === 0 && Object.keys(headers).length === 0) return null;
    return this.box.seal({ env, headers } satisfies Secrets, secretContext(id));
  }

  private open(entry: McpServerEntry): Secrets {
    return entry.sealed_secrets === null
      ? { env: {}, headers: {} }
      : this.box.open<Secrets>(entry.sealed_secrets, secretContext(entry.id));
  }
}

/** Whether an input refers to stored secrets by a masked value. */
export const hasMask = (input: ConnectionInput): boolean =>
  [input.env, input.headers].some((map) => map !== undefined && Object.values(map).includes(MASK));

/** Everything of a connection stored in clear: the secret values are sealed apart, their names are not. */
const reachOf = ({ env, headers, ...reach }: Connection) => ({
  ...reach,
  env_keys: Object.keys(env),
  header_keys: Object.keys(headers),
});

/** Sealed secrets are bound to their entry. */
const secretContext = (id: string): string => `mcp_servers/${id}`;

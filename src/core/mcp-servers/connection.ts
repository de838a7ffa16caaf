import { createHash } from 'node:crypto';
import { invalid } from '../../errors.js';
import type { McpTransport } from '../../storage/types.js';
import { MASK } from '../secrets/secret-box.js';

export type StringMap = Record<string, string>;

/** How to reach an MCP server: a command to run (stdio) or a URL, with its environment and headers. */
export interface Connection {
  transport: McpTransport;
  command: string | null;
  args: string[];
  url: string | null;
  env: StringMap;
  headers: StringMap;
}

/** A connection as a request states it: any field may be absent (keep, or default), command and url may be null. */
export interface ConnectionInput {
  transport?: McpTransport | undefined;
  command?: string | null | undefined;
  args?: string[] | undefined;
  url?: string | null | undefined;
  env?: StringMap | undefined;
  headers?: StringMap | undefined;
}

/**
 * The connection an input makes over `current` (absent fields keep theirs; without `current` they take their
 * defaults). The transport, when neither names it, follows from what is there: a command is stdio, a URL is
 * `http`. Stdio needs a command; the other transports need a URL. A secret sent back as the mask keeps the value
 * stored in `secretsOf` (a read-modify-write of a masked entry must not overwrite its secrets with asterisks).
 */
export function connectionOf(
  input: ConnectionInput,
  current: Connection | null,
  pointer = '',
  secretsOf: Connection | null = current,
): Connection {
  const command = input.command !== undefined ? input.command : (current?.command ?? null);
  const url = input.url !== undefined ? input.url : (current?.url ?? null);
  const transport =
    input.transport ?? current?.transport ?? (command !== null ? 'stdio' : url !== null ? 'http' : null);
  if (transport === null)
    throw invalid(`${pointer}/command`, 'an MCP server needs `command` (stdio) or `url` (http, sse, streamable-http)');
  if (transport === 'stdio' && command === null)
    throw invalid(`${pointer}/command`, 'is required for the stdio transport');
  if (transport !== 'stdio' && url === null)
    throw invalid(`${pointer}/url`, `is required for the ${transport} transport`);
  return {
    transport,
    command,
    args: input.args ?? current?.args ?? [],
    url,
    env: unmask(input.env ?? current?.env ?? {}, secretsOf?.env ?? {}, `${pointer}/env`),
    headers: unmask(input.headers ?? current?.headers ?? {}, secretsOf?.headers ?? {}, `${pointer}/headers`),
  };
}

function unmask(given: StringMap, stored: StringMap, pointer: string): StringMap {
  return Object.fromEntries(
    Object.entries(given).map(([key, value]) => {
      if (value !== MASK) return [key, value];
      const kept = stored[key];
      if (kept === undefined)
        throw invalid(`${pointer}/${key}`, 'is the mask of a secret this entry does not have: send the value');
      return [key, kept];
    }),
  );
}

/** Equal connections hash alike whatever the key order of env and headers. */
export function connectionHash(connection: Connection): string {
  const sorted = (map: StringMap) =>
    Object.fromEntries(Object.entries(map).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  const canonical = JSON.stringify([
    connection.transport,
    connection.command,
    connection.args,
    connection.url,
    sorted(connection.env),
    sorted(connection.headers),
  ]);
  return createHash('sha256').update(canonical).digest('hex');
}

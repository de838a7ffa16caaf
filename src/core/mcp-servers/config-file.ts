import { invalid } from '../../errors.js';
import type { McpTransport } from '../../storage/types.js';
import type { ConnectionInput, StringMap } from './connection.js';

/** One server of the common client configuration file: `{"mcpServers": {"<name>": {…}}}`. */
export interface ConfigFileServer {
  transport?: McpTransport | undefined;
  /** What some clients call the transport. */
  type?: McpTransport | undefined;
  command?: string | undefined;
  args?: string[] | undefined;
  env?: StringMap | undefined;
  url?: string | undefined;
  headers?: StringMap | undefined;
  description?: string | undefined;
  disabled?: boolean | undefined;
}

export type ConfigFile = { mcpServers: Record<string, ConfigFileServer> };

export interface ImportedServer {
  name: string;
  connection: ConnectionInput;
  description: string | undefined;
  enabled: boolean;
}

/** The servers of a configuration file, in the order written. */
export function readConfigFile(file: ConfigFile): ImportedServer[] {
  return Object.entries(file.mcpServers).map(([name, server]) => {
    if (server.type !== undefined && server.transport !== undefined && server.type !== server.transport) {
      throw invalid(`/mcpServers/${name}/type`, 'differs from `transport`');
    }
    const { type, transport, disabled, description, ...connection } = server;
    return {
      name,
      connection: { ...connection, transport: transport ?? type },
      description,
      enabled: disabled !== true,
    };
  });
}

/** A server as the configuration file writes it: what its transport uses, `disabled` only when it is. */
export function configFileServer(server: {
  transport: McpTransport;
  command: string | null;
  args: string[];
  url: string | null;
  env: StringMap;
  headers: StringMap;
  enabled: boolean;
}): ConfigFileServer {
  const reach =
    server.transport === 'stdio'
      ? { command: server.command ?? '', args: server.args, env: server.env }
      : { url: server.url ?? '', headers: server.headers };
  return { transport: server.transport, ...reach, ...(server.enabled ? {} : { disabled: true }) };
}

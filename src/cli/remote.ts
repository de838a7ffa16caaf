import { Option, type Command } from 'commander';
import { loadConfig } from '../config.js';
import { positiveNumber } from './option-values.js';
// The client package's sources, as the tests use them: the CLI runs from sources (tsx) or from one build of both.
import { MemdClient } from '../../packages/client/src/index.js';

export {
  ConnectionError,
  MemdClient,
  MemdError,
  NotFoundError,
  type JsonBody,
  type Operation,
  type Result,
} from '../../packages/client/src/index.js';

/** What a command that talks to a running server was given. */
export interface RemoteOptions {
  url?: string;
  apiKey?: string;
  workspace?: string;
  timeout: number;
}

/** The server `memd serve` would start in this environment (MEMD_HOST, MEMD_PORT), reached over loopback when it listens on every address. */
function localServerUrl(): string {
  const { host, port } = loadConfig({ MEMD_HOST: process.env.MEMD_HOST, MEMD_PORT: process.env.MEMD_PORT });
  const reachable = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  return `http://${reachable.includes(':') ? `[${reachable}]` : reachable}:${port}`;
}

/** `--url`, `--api-key` and `--timeout`, with MEMD_URL and MEMD_API_KEY as defaults. */
export function addConnectionOptions(command: Command, timeoutSeconds = 30): Command {
  return command
    .addOption(
      new Option(
        '--url <url>',
        'the memd server (default: where `memd serve` listens with this MEMD_HOST and MEMD_PORT)',
      ).env('MEMD_URL'),
    )
    .addOption(
      new Option(
        '--api-key <key>',
        'API key, sent as Authorization: Bearer (a server with MEMD_ADMIN_KEY set needs one)',
      ).env('MEMD_API_KEY'),
    )
    .addOption(
      new Option('--timeout <seconds>', 'how long one request may take')
        .argParser(positiveNumber)
        .default(timeoutSeconds),
    );
}

/** `-w, --workspace`, with MEMD_WORKSPACE as default, else `fallback` (undefined: the server's choice). */
export function addWorkspaceOption(command: Command, fallback?: string): Command {
  const option = new Option('-w, --workspace <id>', 'workspace').env('MEMD_WORKSPACE');
  return command.addOption(fallback === undefined ? option : option.default(fallback));
}

// setTimeout holds at most 2^31-1 ms; beyond, Node fires at once.
const MAX_TIMER_MS = 2 ** 31 - 1;

export function connect(options: RemoteOptions): MemdClient {
  return new MemdClient({
    baseUrl: options.url ?? localServerUrl(),
    ...(options.apiKey && { apiKey: options.apiKey }),
    ...(options.workspace && { workspaceId: options.workspace }),
    timeoutMs: Math.min(options.timeout * 1000, MAX_TIMER_MS),
  });
}

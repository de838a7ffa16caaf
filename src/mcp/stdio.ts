import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import pino from 'pino';
import { loadConfig } from '../config.js';
import { IDENTIFIER_RULE, isIdentifier } from '../core/identifiers.js';
import type { Logger } from '../core/logger.js';
import { contextualLogger, type ContextLogger } from '../observability/index.js';
import { createServices, type CoreServices } from '../services.js';
import { ForegroundTransport } from './foreground-transport.js';
import { connectRelay } from './relay.js';
import { createMcpServer } from './server.js';

export interface StdioOptions {
  /** A running memd to relay to (its base URL, or its /mcp endpoint). Without it, memd runs in this process. */
  url?: string | undefined;
  /** With `url`: the API key (sent as Authorization: Bearer). */
  apiKey?: string | undefined;
  /** The workspace of calls that name none (a tool's `workspace_id` argument still wins). */
  workspace?: string | undefined;
  /** Without `url`: the data directory (default: MEMD_DATA_DIR, else ./data). Other settings come from MEMD_*. */
  dataDir?: string | undefined;
  /** Settings (default: process.env). */
  env?: NodeJS.ProcessEnv | undefined;
}

export interface StdioServer {
  /** Resolves once the server has stopped: stdin ended, SIGTERM/SIGINT, or `close()`. */
  closed: Promise<void>;
  close(): Promise<void>;
}

/**
 * MCP over this process's stdin and stdout (`memd mcp`), for agents that start their MCP servers as processes.
 * Either a relay to a remote memd (`url`, `apiKey`), or memd itself in this process on the local data directory,
 * with the core services `src/services.ts` builds and no HTTP listener; the caller is then the data's owner (as
 * without an admin key). stdout carries the protocol only: logs go to stderr.
 */
export async function runStdioServer(options: StdioOptions = {}): Promise<StdioServer> {
  const env = options.env ?? process.env;
  // Refused at start rather than on every call the agent makes (the resolver holds every workspace hint to this).
  if (options.workspace !== undefined && !isIdentifier(options.workspace))
    throw new Error(`--workspace '${options.workspace}' is not a workspace id: ${IDENTIFIER_RULE}`);
  const log = pino({ level: env.MEMD_LOG_LEVEL ?? 'info', base: { service: 'memd-mcp' } }, pino.destination(2));
  const { server, stopServing, foreground } = options.url
    ? await relayed(options, log)
    : await inProcess(options, env, log);

  let settle!: { resolve: () => void; reject: (error: unknown) => void };
  const closed = new Promise<void>((resolve, reject) => (settle = { resolve, reject }));
  let stopping = false;
  const close = (): Promise<void> => {
    if (!stopping) {
      stopping = true;
      void (async () => {
        process.stdin.off('end', stop);
        for (const signal of SIGNALS) process.off(signal, stop);
        await server.close();
        await stopServing();
      })().then(settle.resolve, settle.reject);
    }
    return closed;
  };
  const stop = () =>
    void close().catch((error: unknown) => log.error({ err: error }, 'stopping the MCP server failed'));
  // The client going away (stdin ends) or a signal stops the server; close() lets the work in flight finish.
  process.stdin.once('end', stop);
  for (const signal of SIGNALS) process.once(signal, stop);
  const stdio = new StdioServerTransport();
  // In process, the agent's calls are this memd's only clients: background tasks give way to them as to HTTP requests.
  await server.connect(foreground ? new ForegroundTransport(stdio, foreground) : stdio);
  return { closed, close };
}

const SIGNALS = ['SIGTERM', 'SIGINT'] as const;

/** What serves on stdio, and what to stop after it. */
interface Served {
  server: Pick<Server, 'connect' | 'close'>;
  stopServing(): Promise<void>;
  /** In process: the client activity background tasks give way to (a relay's remote memd counts its own). */
  foreground?: CoreServices['foreground'];
}

async function relayed(options: StdioOptions, log: Logger): Promise<Served> {
  const relay = await connectRelay({ url: options.url!, apiKey: options.apiKey, workspace: options.workspace });
  log.info({ url: options.url }, 'memd MCP relay on stdio');
  return { server: relay.server, stopServing: () => relay.upstream.close() };
}

async function inProcess(options: StdioOptions, env: NodeJS.ProcessEnv, log: ContextLogger): Promise<Served> {
  const config = loadConfig({ ...env, ...(options.dataDir && { MEMD_DATA_DIR: options.dataDir }) });
  const services = await createServices(config, contextualLogger(log));
  try {
    await services.start();
  } catch (error) {
    await services.close();
    throw error;
  }
  log.info({ dataDir: config.dataDir, storage: config.storage.kind }, 'memd MCP server on stdio');
  const server = createMcpServer(services, { principal: { kind: 'local' }, workspace: options.workspace }, log);
  return { server: server.server, stopServing: () => services.close(), foreground: services.foreground };
}

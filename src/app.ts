import { setTimeout as sleep } from 'node:timers/promises';
import pino, { type DestinationStream } from 'pino';
import type { Config } from './config.js';
import { isStorageUnavailable } from './errors.js';
import { buildHttpServer, type App } from './http/server.js';
import { mountStreamableHttp } from './mcp/streamable-http.js';
import { contextualLogger } from './observability/index.js';
import { createServices, type ServiceOptions, type Services } from './services.js';

export interface MemdApp {
  services: Services;
  http: App;
  /** Listens on the configured host and port (or `port` when given, e.g. 0) and returns the URL. */
  listen(port?: number): Promise<string>;
  /** Resolves once search indexes are warm and background work runs (after `listen`). */
  ready(): Promise<void>;
  /** Graceful stop: refuse new requests, finish those in flight, stop background work, close the database. */
  close(): Promise<void>;
}

export interface AppOptions extends ServiceOptions {
  logLevel?: string;
  /** Where log lines go (stdout by default; tests read them). */
  logDestination?: DestinationStream;
}

export async function createApp(config: Config, options: AppOptions = {}): Promise<MemdApp> {
  const logger = pino(
    { level: options.logLevel ?? config.logLevel, base: { service: 'memd' } },
    options.logDestination,
  );
  // The services log through the logger of the request or task at hand, so that their lines name it.
  const services = await createServices(config, contextualLogger(logger), options);
  let http: App;
  try {
    http = await buildHttpServer(services, logger);
    if (config.mcp.enabled) await mountStreamableHttp(http, services);
  } catch (error) {
    await services.close();
    throw error;
  }
  let started: Promise<void> = Promise.resolve();
  const closing = new AbortController();
  /**
   * Search indexes warm up behind a listening server: /health/ready says when they are done. A database that goes
   * away meanwhile (PostgreSQL restarting under a node that started a moment before) fails a step of the start; the
   * node then tries again until the database answers, rather than staying not ready for good (every step may run
   * again: warming, seeding the recurring tasks; the task runner starts last).
   */
  const startInTheBackground = async (): Promise<void> => {
    for (let waitMs = START_RETRY_MIN_MS; ; waitMs = Math.min(2 * waitMs, START_RETRY_MAX_MS)) {
      try {
        await services.start();
        return;
      } catch (error) {
        if (!isStorageUnavailable(error) || closing.signal.aborted) {
          logger.error({ err: error }, 'background start failed');
          return;
        }
        logger.warn({ err: error, retryInMs: waitMs }, 'background start: the database is not available, trying again');
        await sleep(waitMs, undefined, { signal: closing.signal }).catch(() => undefined);
        if (closing.signal.aborted) return;
      }
    }
  };
  return {
    services,
    http,
    async listen(port = config.port) {
      const url = await http.listen({ host: config.host, port });
      started = startInTheBackground();
      return url;
    },
    ready: () => started,
    async close() {
      closing.abort();
      await http.close();
      await started;
      await services.close();
    },
  };
}

/** How long a start that met no database waits before trying again: doubling from the first to the last. */
const START_RETRY_MIN_MS = 250;
const START_RETRY_MAX_MS = 5_000;

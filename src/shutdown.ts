import type { FastifyBaseLogger } from 'fastify';
import { ConfigError } from './config.js';

/**
 * Graceful stop on SIGTERM/SIGINT: `close` finishes in-flight work; past `timeoutMs` the process exits anyway.
 * Exits 0 after a clean close, 1 otherwise.
 */
export function stopOnSignals(close: () => Promise<void>, log: FastifyBaseLogger, timeoutMs: number): void {
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'stopping: finishing in-flight requests');
    const force = setTimeout(() => {
      log.error('graceful stop took too long; exiting');
      process.exit(1);
    }, timeoutMs);
    force.unref();
    close().then(
      () => process.exit(0),
      (error: unknown) => {
        log.error({ err: error }, 'error while stopping');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

/** Says why a process could not start (a configuration message as is, anything else with its stack) and exits 1. */
export function exitWithStartFailure(name: string, error: unknown): never {
  const message =
    error instanceof ConfigError
      ? error.message
      : error instanceof Error
        ? (error.stack ?? error.message)
        : String(error);
  process.stderr.write(`${name} could not start: ${message}\n`);
  process.exit(1);
}

import { createApp } from './app.js';
import { ConfigError, loadConfig } from './config.js';

/** Process entry: configuration, server, and a graceful stop on SIGTERM/SIGINT. */
async function main(): Promise<void> {
  const config = loadConfig();
  const app = await createApp(config);
  const url = await app.listen();
  app.http.log.info({ url, storage: config.storage.kind, embedder: `${app.services.embedder.name}/${app.services.embedder.model}` }, 'memd listening');

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.http.log.info({ signal }, 'stopping: finishing in-flight requests');
    const force = setTimeout(() => {
      app.http.log.error('graceful stop took too long; exiting');
      process.exit(1);
    }, config.shutdownTimeoutMs);
    force.unref();
    app.close().then(
      () => process.exit(0),
      (error: unknown) => {
        app.http.log.error({ err: error }, 'error while stopping');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

main().catch((error: unknown) => {
  const message = error instanceof ConfigError ? error.message : error instanceof Error ? (error.stack ?? error.message) : String(error);
  process.stderr.write(`memd could not start: ${message}\n`);
  process.exit(1);
});

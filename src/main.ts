import { createApp } from './app.js';
import { loadConfig } from './config.js';
import { exitWithStartFailure, stopOnSignals } from './shutdown.js';

/** Process entry: configuration, server, and a graceful stop on SIGTERM/SIGINT. */
async function main(): Promise<void> {
  const config = loadConfig();
  const app = await createApp(config);
  const url = await app.listen();
  app.http.log.info({ url, storage: config.storage.kind, embedder: `${app.services.embedder.name}/${app.services.embedder.model}` }, 'memd listening');
  stopOnSignals(() => app.close(), app.http.log, config.shutdownTimeoutMs);
}

main().catch((error: unknown) => exitWithStartFailure('memd', error));

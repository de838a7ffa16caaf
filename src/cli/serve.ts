import type { Command } from 'commander';
import { loadConfig } from '../config.js';
import { exitWithStartFailure, stopOnSignals } from '../shutdown.js';
import { SERVER } from '../config/settings/server.js';
import { addSettingOptions, DATA_DIR, environmentWith, settingOption, type SettingOption } from './settings.js';

const SETTINGS: SettingOption[] = [
  settingOption('--host <address>', SERVER.host),
  settingOption('--port <number>', SERVER.port),
  DATA_DIR,
];

/** Configuration, server, and a graceful stop on SIGTERM/SIGINT (`npm start` runs this through src/main.ts). */
export async function runServer(env: Record<string, string | undefined>): Promise<void> {
  const config = loadConfig(env);
  // Loaded here, not above: `memd --help` and the commands that only talk to a server need none of it.
  const { createApp } = await import('../app.js');
  const { compileWhatIsLeft, keepForLater } = await import('../http/compiled-on-first-use.js');
  keepForLater();
  const app = await createApp(config);
  const url = await app.listen();
  app.http.log.info(
    { url, storage: config.storage.kind, embedder: `${app.services.embedder.name}/${app.services.embedder.model}` },
    'memd listening',
  );
  stopOnSignals(() => app.close(), app.http.log, config.shutdownTimeoutMs);
  // Once ready, the route schemas no request has needed yet, so that no first call after a start compiles its own.
  await app.ready();
  const compiling = performance.now();
  const schemas = await compileWhatIsLeft();
  app.http.log.debug({ schemas, ms: Math.round(performance.now() - compiling) }, 'route schemas compiled');
}

export function serveCommand(program: Command): void {
  const command = program
    .command('serve')
    .summary('run the API server')
    .description(
      'Run the memd API server (what `npm start` runs). Every other setting comes from its MEMD_* variable (README, Configuration).',
    )
    .action((options: Record<string, unknown>) =>
      runServer(environmentWith(options, SETTINGS)).catch((error: unknown) => exitWithStartFailure('memd', error)),
    );
  addSettingOptions(command, SETTINGS);
}

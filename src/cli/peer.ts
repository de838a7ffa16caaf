import type { Command } from 'commander';
import { loadPeerConfig, PEER } from '../peer/config.js';
import { exitWithStartFailure, stopOnSignals } from '../shutdown.js';
import { addSettingOptions, environmentWith, settingOption, type SettingOption } from './settings.js';

const SETTINGS: SettingOption[] = [
  settingOption('--host <address>', PEER.host),
  settingOption('--port <number>', PEER.port),
];

/** The embedding peer: configuration, server, graceful stop (`npm run peer` runs this). */
async function runPeer(env: Record<string, string | undefined>): Promise<void> {
  const config = loadPeerConfig(env);
  const { createPeer } = await import('../peer/server.js');
  const peer = await createPeer(config);
  const url = await peer.listen();
  peer.http.log.info(
    {
      url,
      embedding: config.embedding.map((e) => e.provider),
      ocr: config.ocr.provider,
      llm: config.llm.enabled ? config.llm.profiles.map((p) => p.name) : 'disabled',
    },
    'memd peer listening',
  );
  stopOnSignals(() => peer.close(), peer.http.log, 10_000);
}

export function peerCommand(program: Command): void {
  const command = program
    .command('peer')
    .summary('run the embedding peer')
    .description(
      'Run the embedding peer: a stateless process serving embeddings (and, when enabled, language models) to memd nodes. Other settings: MEMD_PEER_* (README, Embedding peer).',
    )
    .action((options: Record<string, unknown>) =>
      runPeer(environmentWith(options, SETTINGS)).catch((error: unknown) => exitWithStartFailure('memd peer', error)),
    );
  addSettingOptions(command, SETTINGS);
}

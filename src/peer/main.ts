import { loadPeerConfig } from '../config.js';
import { exitWithStartFailure, stopOnSignals } from '../shutdown.js';
import { createPeer } from './server.js';

/** Peer entry (`npm run peer -- --host 0.0.0.0 --port 61051`): configuration, server, graceful stop. */
async function main(): Promise<void> {
  const config = loadPeerConfig(process.env, process.argv.slice(2));
  const peer = await createPeer(config);
  const url = await peer.listen();
  peer.http.log.info({ url, embedding: config.embedding.map((e) => e.provider), ocr: config.ocr.provider, llm: config.llm.enabled ? config.llm.profiles.map((p) => p.name) : 'disabled' }, 'memd peer listening');
  stopOnSignals(() => peer.close(), peer.http.log, 10_000);
}

main().catch((error: unknown) => exitWithStartFailure('memd peer', error));

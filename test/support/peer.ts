import { loadPeerConfig } from '../../src/peer/config.js';
import { createPeer, type Peer, type PeerOptions } from '../../src/peer/server.js';

export interface TestPeer {
  url: string;
  peer: Peer;
  stop(): Promise<void>;
}

/** The embedding peer on an ephemeral port, serving the `hash` provider and no OCR unless `env` says otherwise. */
export async function startPeer(
  env: Record<string, string> = {},
  options: PeerOptions & { waitForModels?: boolean } = {},
): Promise<TestPeer> {
  const config = loadPeerConfig({
    MEMD_PEER_EMBEDDING_PROVIDERS: 'hash',
    MEMD_PEER_OCR: 'off',
    MEMD_PEER_HOST: '127.0.0.1',
    MEMD_PEER_PORT: '0',
    ...env,
  });
  const peer = await createPeer(config, { logLevel: process.env.MEMD_TEST_LOG ?? 'silent', ...options });
  const url = await peer.listen();
  if (options.waitForModels !== false) await peer.ready();
  return { url, peer, stop: () => peer.close() };
}

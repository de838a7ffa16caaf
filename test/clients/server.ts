import { afterAll, beforeAll } from 'vitest';
import { startServer, type TestServer, type TestServerOptions } from '../support/server.js';
import { wireClient, type ClientState, type WireClient } from './wire.js';

export interface ClientHarness {
  server: TestServer;
  /** A client as the SDK builds it; its state changes as the SDK's would (setSession after a session starts). */
  sdk: WireClient;
}

/**
 * One server for a test file (no auth, as `npm start` runs) and an SDK-shaped client configured with a workspace
 * that does not exist yet: clients name their workspace after their project and never create it.
 */
export function useClientServer(
  state: ClientState = { workspaceId: 'my-project' },
  options: TestServerOptions = {},
): ClientHarness {
  const harness = {} as ClientHarness;
  beforeAll(async () => {
    harness.server = await startServer(options);
    harness.sdk = wireClient(harness.server.url, { ...state });
  });
  afterAll(() => harness.server.stop());
  return harness;
}

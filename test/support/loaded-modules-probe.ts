/**
 * Starts memd in this process (OTEL_* from the environment), serves a write and a recall, and prints the
 * OpenTelemetry packages the process loaded, as a JSON list. Run as a separate process by test/api/tracing.test.ts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemdClient } from '../../packages/client/src/index.js';
import { createApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';

const dataDir = mkdtempSync(join(tmpdir(), 'memd-probe-'));
const otel = Object.fromEntries(Object.entries(process.env).filter(([key]) => key.startsWith('OTEL_')));
const config = loadConfig({
  ...otel,
  MEMD_DATA_DIR: dataDir,
  MEMD_EMBEDDING_PROVIDER: 'hash',
  MEMD_HOST: '127.0.0.1',
  MEMD_PORT: '0',
});
const app = await createApp(config, { logLevel: 'silent' });
const url = await app.listen(0);
await app.ready();
const memd = new MemdClient({ baseUrl: url });
await memd.memories.create({ content: 'The probe writes one memory.' });
await memd.memories.recall({ query: 'probe memory' });
await app.close();
rmSync(dataDir, { recursive: true, force: true });

const loaded = new Set<string>();
for (const path of Object.keys(createRequire(import.meta.url).cache)) {
  const found = /node_modules\/(@opentelemetry\/[^/]+)\//.exec(path);
  if (found) loaded.add(found[1]!);
}
process.stdout.write(JSON.stringify([...loaded].sort()));

import { parseArgs } from 'node:util';
import { exitWithStartFailure } from '../shutdown.js';
import { runStdioServer } from './stdio.js';

/**
 * A process serving MCP on stdio (tests and benchmarks spawn it; `memd mcp` is the command for users):
 * `--url <memd> [--api-key <key>]` relays to a running memd; without --url, memd runs in this process on
 * `--data-dir` (default MEMD_DATA_DIR, else ./data). `--workspace` names the default workspace.
 */
async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      url: { type: 'string' },
      'api-key': { type: 'string' },
      workspace: { type: 'string' },
      'data-dir': { type: 'string' },
    },
  });
  const server = await runStdioServer({
    url: values.url,
    apiKey: values['api-key'],
    workspace: values.workspace,
    dataDir: values['data-dir'],
  });
  await server.closed;
  process.exit(0);
}

main().catch((error: unknown) => exitWithStartFailure('memd mcp', error));

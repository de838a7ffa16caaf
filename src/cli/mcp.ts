import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Option, type Command } from 'commander';
import { siblingModule } from '../worker-entry.js';
import { CommandFailure } from './failure.js';
import { DATA_DIR } from './settings.js';

/** What src/mcp/stdio.ts exports (the MCP server is its own module; this command only starts it). */
interface McpStdioModule {
  /** Serves until stdin ends or a signal comes: `closed` settles then. */
  runStdioServer(options: { url?: string; apiKey?: string; workspace?: string; dataDir?: string }): Promise<{ closed: Promise<void> }>;
}

/**
 * The MCP server is loaded when this command runs, from beside this module (`.ts` from sources, `.js` built): the
 * type-checker does not require it, and a build without it runs every other command.
 */
async function loadStdioServer(): Promise<McpStdioModule> {
  const module = siblingModule(import.meta.url, '../mcp/stdio');
  if (!existsSync(fileURLToPath(module))) throw new CommandFailure(`this build of memd has no MCP server (${fileURLToPath(module)} is missing), so \`memd mcp\` cannot start`);
  return (await import(module.href)) as McpStdioModule;
}

interface McpOptions {
  url?: string;
  apiKey?: string;
  workspace?: string;
  dataDir?: string;
}

export function mcpCommand(program: Command): void {
  program
    .command('mcp')
    .summary('serve MCP over stdio (for agents)')
    .description('Serve the Model Context Protocol over stdin/stdout, for an agent that starts memd as its MCP server: forwarding to a running server (--url), or in-process on the local data directory')
    .addOption(new Option('--url <url>', 'a running memd server to forward to').env('MEMD_URL'))
    .addOption(new Option('--api-key <key>', 'its API key').env('MEMD_API_KEY'))
    .addOption(new Option('-w, --workspace <id>', 'the workspace tools use when a call names none').env('MEMD_WORKSPACE'))
    .addOption(new Option(DATA_DIR.flags, `without --url: the ${DATA_DIR.description} (default: ${DATA_DIR.variable})`))
    .action(async (options: McpOptions) => {
      const { runStdioServer } = await loadStdioServer();
      const served = await runStdioServer({
        ...(options.url && { url: options.url }),
        ...(options.apiKey && { apiKey: options.apiKey }),
        ...(options.workspace && { workspace: options.workspace }),
        ...(options.dataDir && { dataDir: options.dataDir }),
      });
      // A failure to stop cleanly is this command's failure (exit status 1).
      await served.closed;
    });
}

import { Option, type Command } from 'commander';
import { DATA_DIR } from './settings.js';

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
    .description(
      'Serve the Model Context Protocol over stdin/stdout, for an agent that starts memd as its MCP server: forwarding to a running server (--url), or in-process on the local data directory',
    )
    .addOption(new Option('--url <url>', 'a running memd server to forward to').env('MEMD_URL'))
    .addOption(new Option('--api-key <key>', 'its API key').env('MEMD_API_KEY'))
    .addOption(
      new Option('-w, --workspace <id>', 'the workspace tools use when a call names none').env('MEMD_WORKSPACE'),
    )
    .addOption(new Option(DATA_DIR.flags, `without --url: the ${DATA_DIR.description} (default: ${DATA_DIR.variable})`))
    .action(async (options: McpOptions) => {
      const { runStdioServer } = await import('../mcp/stdio.js');
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

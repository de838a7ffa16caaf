import { Command } from 'commander';
import { doctorCommand } from './doctor.js';
import { exportCommand } from './export.js';
import { importCommand } from './import.js';
import { keysCommand } from './keys.js';
import { mcpCommand } from './mcp.js';
import { peerCommand } from './peer.js';
import { recallCommand } from './recall.js';
import { reembedCommand } from './reembed.js';
import { serveCommand } from './serve.js';

/** `memd` and its commands (one file each). Errors surface as exceptions (exitOverride): main.ts decides the exit status. */
export function buildProgram(): Command {
  const program = new Command('memd')
    .description(
      'memd: long-term memory for AI agents. Settings come from MEMD_* environment variables (README, Configuration); options override the ones they name.',
    )
    .exitOverride()
    .showHelpAfterError('(memd <command> --help shows its options)');
  for (const add of [
    serveCommand,
    peerCommand,
    mcpCommand,
    exportCommand,
    importCommand,
    recallCommand,
    keysCommand,
    reembedCommand,
    doctorCommand,
  ])
    add(program);
  return program;
}

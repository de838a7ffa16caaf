import type { Command } from 'commander';
import { DEFAULT_WORKSPACE } from '../core/workspaces/defaults.js';
import { CommandFailure } from './failure.js';
import { startProgress } from './progress.js';
import {
  addConnectionOptions,
  addWorkspaceOption,
  connect,
  type MemdClient,
  NotFoundError,
  type RemoteOptions,
} from './remote.js';
import { openInput } from './streams.js';

interface ImportOptions extends RemoteOptions {
  workspace: string;
  create?: boolean;
  json?: boolean;
}

/** Before the upload: an answer after it (a 404) would come when stdin is spent, and the import could not be sent again. */
async function ensureWorkspace(client: MemdClient, options: ImportOptions): Promise<void> {
  try {
    await client.workspaces.get(options.workspace);
  } catch (error) {
    if (!(error instanceof NotFoundError)) throw error;
    if (!options.create)
      throw new CommandFailure(`workspace '${options.workspace}' does not exist (--create makes it)`);
    await client.workspaces.create({ id: options.workspace, name: options.workspace });
    process.stderr.write(`created workspace ${options.workspace}\n`);
  }
}

async function importWorkspace(file: string | undefined, options: ImportOptions): Promise<void> {
  const input = openInput(file);
  const client = connect(options);
  await ensureWorkspace(client, options);
  const progress = startProgress('importing', 'bytes', input.size);
  let read = 0;
  // The bar follows what the upload has taken from the input: the request streams, so that is what the server has.
  async function* counted(): AsyncGenerator<Buffer> {
    for await (const chunk of input.chunks) {
      read += chunk.length;
      progress.update(read);
      yield chunk;
    }
    progress.note('(all sent; the server is storing the last lines)');
  }
  const report = await client.workspaces.import(options.workspace, counted()).finally(() => progress.stop());
  if (options.json) process.stdout.write(`${JSON.stringify(report)}\n`);
  else {
    process.stdout.write(
      `imported ${report.imported} memories and ${report.associations_imported} associations into ${options.workspace}; ${report.skipped_duplicates} duplicates skipped, ${report.errors} lines refused\n`,
    );
    for (const detail of report.details) process.stderr.write(`  ${detail}\n`);
  }
  if (report.errors > 0) throw new CommandFailure(`${report.errors} lines were not imported`);
}

export function importCommand(program: Command): void {
  const command = program
    .command('import')
    .summary('import NDJSON into a workspace')
    .description(
      'Import NDJSON export lines (from `memd export`, or any export of the same shape) into a workspace of a running server; memories whose content the workspace holds are skipped',
    )
    .argument('[file]', 'what to read; - or nothing: stdin')
    .option('--create', 'create the workspace when it does not exist')
    .option('--json', 'print the import report as JSON')
    .action(importWorkspace);
  addWorkspaceOption(command, DEFAULT_WORKSPACE);
  // The answer comes once every line is stored: a large import takes a while.
  addConnectionOptions(command, 3600);
}

import type { Command } from 'commander';
import { DEFAULT_WORKSPACE } from '../core/workspaces/defaults.js';
import { progressVisible, startProgress, type Progress } from './progress.js';
import { addConnectionOptions, addWorkspaceOption, connect, type RemoteOptions } from './remote.js';
import { openOutput } from './streams.js';

interface ExportOptions extends RemoteOptions {
  workspace: string;
  associations: boolean;
  includeEmbeddings?: boolean;
}

async function exportWorkspace(file: string | undefined, options: ExportOptions): Promise<void> {
  const client = connect(options);
  const output = openOutput(file);
  // NDJSON on the terminal itself leaves no room for a bar.
  const barVisible = progressVisible() && !(output.toStdout && process.stdout.isTTY);
  let progress: Progress | undefined;
  let memories = 0;
  try {
    for await (const line of client.workspaces.export(options.workspace, {
      include_associations: options.associations,
      include_embeddings: options.includeEmbeddings ?? false,
    })) {
      if (line.type === 'header') progress = startProgress('exporting', 'memories', line.total_memories, barVisible);
      if (line.type === 'memory') progress?.update(++memories);
      await output.write(`${JSON.stringify(line)}\n`);
    }
    await output.commit();
  } catch (error) {
    output.discard();
    throw error;
  } finally {
    progress?.stop();
  }
}

export function exportCommand(program: Command): void {
  const command = program
    .command('export')
    .summary('export a workspace as NDJSON')
    .description(
      `Export a workspace of a running server as NDJSON (a header line, one line per memory and association, a footer) to a file or stdout`,
    )
    .argument('[file]', 'where to write; - or nothing: stdout')
    .option('--no-associations', 'leave the associations out')
    .option(
      '--include-embeddings',
      'add each memory’s vector (an import into a server with the same embedder then skips embedding)',
    )
    .action(exportWorkspace);
  addWorkspaceOption(command, DEFAULT_WORKSPACE);
  addConnectionOptions(command);
}

import type { Command } from 'commander';
import { loadConfig } from '../config.js';
import type { VectorIndexes } from '../core/reembed.js';
import type { SqlStorage } from '../storage/sql/storage.js';
import { startProgress, type Progress } from './progress.js';
import { addSettingOptions, DATA_DIR, environmentWith } from './settings.js';

const SETTINGS = [DATA_DIR];

const vectorIndexesOf = (storage: SqlStorage): VectorIndexes => ({
  drop: () => storage.engine.dropVectorIndexes(storage.sqlContext.db),
  rebuild: async () => void (await storage.engine.warmUp(storage.sqlContext.db)),
});

async function reembed(options: { workspace?: string } & Record<string, unknown>): Promise<void> {
  const config = loadConfig(environmentWith(options, SETTINGS));
  const [{ reembedMemories }, { createEmbeddingProvider }, { openStorage }] = await Promise.all([
    import('../core/reembed.js'),
    import('../providers/embedding/index.js'),
    import('../storage/index.js'),
  ]);
  const embedder = createEmbeddingProvider(config.embedding);
  let progress: Progress | undefined;
  let memories: number;
  try {
    await embedder.init();
    // On SQLite this claims the data directory: with a server running there it fails at once, as it should.
    const storage = await openStorage(config.storage, embedder.dimensions);
    try {
      ({ memories } = await reembedMemories(storage, embedder, vectorIndexesOf(storage), {
        ...(options.workspace && { workspaceId: options.workspace }),
        onProgress: (done, total) => (progress ??= startProgress('re-embedding', 'memories', total)).update(done),
      }));
    } finally {
      await storage.close();
    }
  } finally {
    progress?.stop();
    await embedder.close();
  }
  process.stdout.write(`done: ${memories} memories${options.workspace ? ` of ${options.workspace}` : ''} now use ${embedder.name}/${embedder.model} (${embedder.dimensions} dimensions)\n`);
}

export function reembedCommand(program: Command): void {
  const command = program
    .command('reembed')
    .summary('embed memories again (after changing the embedder)')
    .description(
      'Embed memories again with the embedder MEMD_EMBEDDING_* selects, on the local data directory (or MEMD_DATABASE_URL), with no server running on it: after changing the embedder (every workspace), or to repair one workspace',
    )
    .option('-w, --workspace <id>', 'only this workspace (when the embedder has not changed)')
    .action(reembed);
  addSettingOptions(command, SETTINGS);
}

import type { Command } from 'commander';
import { loadConfig } from '../config.js';
import type { ReembedReport, VectorIndexes } from '../core/reembed.js';
import type { SqlStorage } from '../storage/sql/storage.js';
import { startProgress, type Progress } from './progress.js';
import { addSettingOptions, DATA_DIR, environmentWith } from './settings.js';

const SETTINGS = [DATA_DIR];

const vectorIndexesOf = (storage: SqlStorage): VectorIndexes => ({
  drop: () => storage.engine.dropVectorIndexes(storage.sqlContext.db),
  rebuild: async () => void (await storage.engine.warmUp(storage.sqlContext.db)),
});

/** What was said last: the report, in the words the earlier `memd reembed` used. */
function summary(
  report: ReembedReport,
  workspace: string | undefined,
  embedder: { name: string; model: string; dimensions: number },
): string {
  const what = workspace
    ? `${report.memories} memories of ${workspace}`
    : `${report.memories} memories and ${report.passages} page passages`;
  return `done: ${what} now use ${embedder.name}/${embedder.model} (${embedder.dimensions} dimensions)\n`;
}

async function runReembed(options: { workspace?: string } & Record<string, unknown>): Promise<void> {
  const config = loadConfig(environmentWith(options, SETTINGS));
  const [{ reembed }, { createEmbeddingProvider }, { openStorage }] = await Promise.all([
    import('../core/reembed.js'),
    import('../providers/embedding/index.js'),
    import('../storage/index.js'),
  ]);
  const embedder = createEmbeddingProvider(config.embedding);
  // One bar per stage: memories (counted beforehand), then page passages (counted as they come).
  let progress: { stage: string; bar: Progress } | undefined;
  const onProgress = (stage: string, done: number, total: number | null) => {
    if (progress?.stage !== stage) {
      progress?.bar.stop();
      progress = { stage, bar: startProgress(`re-embedding ${stage}`, stage, total) };
    }
    progress.bar.update(done);
  };
  let report: ReembedReport;
  try {
    await embedder.init();
    // On SQLite this claims the data directory: with a server running there it fails at once, as it should.
    const storage = await openStorage(config.storage, embedder.dimensions);
    try {
      report = await reembed(storage, embedder, vectorIndexesOf(storage), {
        ...(options.workspace && { workspaceId: options.workspace }),
        onProgress,
      });
    } finally {
      await storage.close();
    }
  } finally {
    progress?.bar.stop();
    await embedder.close();
  }
  process.stdout.write(summary(report, options.workspace, embedder));
}

export function reembedCommand(program: Command): void {
  const command = program
    .command('reembed')
    .summary('embed memories and page passages again (after changing the embedder)')
    .description(
      'Embed every memory and page passage again with the embedder MEMD_EMBEDDING_* selects, on the local data directory (or MEMD_DATABASE_URL), with no server running on it: after changing the embedder; or, with -w, repair the memories of one workspace',
    )
    .option(
      '-w, --workspace <id>',
      'only the memories of this workspace (while the embedder stays what the database has)',
    )
    .action(runReembed);
  addSettingOptions(command, SETTINGS);
}

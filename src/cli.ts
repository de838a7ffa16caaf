#!/usr/bin/env node
import { loadConfig } from './config.js';
import { recordEmbedderIdentity } from './core/embedder-identity.js';
import { normaliseContent } from './core/text/index.js';
import { createEmbeddingProvider } from './providers/embedding/index.js';
import { openStorage } from './storage/index.js';
import type { PassageKey } from './storage/types.js';

const PAGE = 256;

/**
 * `memd reembed`: re-embeds every memory, and every passage that document pages are searched by, with the embedder
 * the current MEMD_EMBEDDING_* settings select.
 */
async function reembed(): Promise<void> {
  const config = loadConfig();
  const embedder = createEmbeddingProvider(config.embedding);
  await embedder.init();
  const storage = await openStorage(config.storage, embedder.dimensions);
  try {
    // Old indexes are typed for the old dimension: they go first, and come back (new dimension) at the end.
    await storage.engine.dropVectorIndexes(storage.sqlContext.db);
    let afterSeq = 0;
    let done = 0;
    for (;;) {
      const page = await storage.memories.scan(null, afterSeq, PAGE);
      if (page.length === 0) break;
      const vectors = await embedder.embed(page.map(({ memory }) => normaliseContent(memory.content)));
      await storage.transaction((tx) =>
        tx.memories.setEmbeddings(page.map(({ memory }, i) => ({ workspaceId: memory.workspace_id, id: memory.id, embedding: vectors[i]! }))),
      );
      afterSeq = page[page.length - 1]!.seq;
      done += page.length;
      process.stdout.write(`\rre-embedded ${done} memories`);
    }
    let after: PassageKey | null = null;
    let passages = 0;
    for (;;) {
      const batch = await storage.documents.scanPassages(after, PAGE);
      if (batch.length === 0) break;
      const vectors = await embedder.embed(batch.map((passage) => normaliseContent(passage.text)));
      await storage.transaction((tx) => tx.documents.setPassageEmbeddings(batch.map((passage, i) => ({ ...passage, embedding: vectors[i]! }))));
      after = batch[batch.length - 1]!;
      passages += batch.length;
      process.stdout.write(`\rre-embedded ${done} memories, ${passages} page passages`);
    }
    await storage.engine.warmUp(storage.sqlContext.db);
    await recordEmbedderIdentity(storage, embedder);
    process.stdout.write(`\ndone: ${done} memories and ${passages} page passages now use ${embedder.name}/${embedder.model} (${embedder.dimensions} dimensions)\n`);
  } finally {
    await storage.close();
    await embedder.close();
  }
}

const COMMANDS: Record<string, () => Promise<void>> = { reembed };
const command = process.argv[2] ?? '';
const run = COMMANDS[command];
if (!run) {
  process.stderr.write(`usage: memd <command>\n  reembed   re-embed every memory and page passage with the configured embedder\n`);
  process.exit(2);
}
run().catch((error: unknown) => {
  process.stderr.write(`memd ${command} failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});

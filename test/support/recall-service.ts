import { systemClock } from '../../src/core/clock.js';
import { RecallService, type RecallTuning } from '../../src/core/recall/service.js';
import type { EmbeddingProvider } from '../../src/providers/embedding/types.js';
import type { SqlStorage } from '../../src/storage/sql/storage.js';
import { silentLogger } from './silent-logger.js';

/** The recall engine over a storage alone: no model, no reranker, no cache, nothing logged. */
export function recallServiceOver(
  storage: SqlStorage,
  queryEmbedder: EmbeddingProvider,
  tuning?: RecallTuning,
): RecallService {
  return new RecallService({
    storage,
    queryEmbedder,
    clock: systemClock,
    llm: null,
    reranker: null,
    log: silentLogger,
    cache: { maxEntries: 0, ttlMs: 0 },
    ...(tuning && { tuning }),
  });
}

import { ConfigError, integer, oneOf, readSettings, type Env, type SettingValues } from '../setting.js';
import type { LlmConfig } from './llm.js';

export const RECALL = {
  cacheEntries: integer({
    name: 'MEMD_RECALL_CACHE_ENTRIES',
    default: 4096,
    min: 0,
    max: 1_000_000,
    meaning:
      'recall results kept in the cache (cleared by any write in the workspace, through any API node); 0 turns it off',
  }),
  cacheTtlMs: integer({
    name: 'MEMD_RECALL_CACHE_TTL_MS',
    default: 300_000,
    min: 0,
    max: 86_400_000,
    meaning: 'how long a cached recall result is served; 0 turns the cache off',
  }),
  reranker: oneOf({
    name: 'MEMD_RECALL_RERANKER',
    values: ['none', 'llm'] as const,
    default: 'none',
    meaning:
      '`llm`: the language model (`MEMD_LLM_PROVIDER`) reorders uncertain recalls (best relevance under `rag_threshold`)',
  }),
};

export type RecallConfig = SettingValues<typeof RECALL>;

/** Recall's cache and reranker; the `llm` reranker needs a language model. */
export function recallConfig(env: Env, llm: Pick<LlmConfig, 'provider'>): RecallConfig {
  const recall = readSettings(RECALL, env);
  if (recall.reranker === 'llm' && llm.provider === 'none')
    throw new ConfigError('MEMD_RECALL_RERANKER=llm needs a language model (MEMD_LLM_PROVIDER)');
  return recall;
}

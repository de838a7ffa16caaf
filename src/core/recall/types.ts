import type { Memory } from '../../storage/types.js';
import type { RecallExplanation, ResultExplanation } from './explain.js';
import type { Intent } from './intent.js';

export type Tolerance = 'loose' | 'moderate' | 'strict';
export type DetailLevel = 'abstract' | 'overview' | 'full';
/** `llm` and `hybrid` are deprecated: accepted, and answered by the current (rag) engine. */
export type RecallMode = 'rag' | 'llm' | 'hybrid';

/**
 * What found, boosted or placed a result. Sorted alphabetically in responses. `contradicted`: a later memory
 * contradicts it and the contradiction is unresolved (contradicted.ts).
 */
export const MATCH_SIGNALS = [
  'vector',
  'keyword',
  'entity',
  'fact',
  'temporal',
  'graph',
  'backlink',
  'context',
  'rerank',
  'contradicted',
] as const;
export type MatchSignal = (typeof MATCH_SIGNALS)[number];

export type Staleness = 'none' | 'mild' | 'moderate' | 'severe';

export interface ConversationTurn {
  role: string;
  content: string;
}

/** A recall as the core receives it; absent fields take the defaults of `options.ts`. */
export interface RecallRequest {
  query: string;
  workspaceId: string;
  types?: string[] | undefined;
  subtypes?: string[] | undefined;
  tags?: string[] | undefined;
  contextId?: string | undefined;
  observerId?: string | undefined;
  subjectId?: string | undefined;
  userId?: string | undefined;
  mode?: RecallMode | undefined;
  tolerance?: Tolerance | undefined;
  limit?: number | undefined;
  minRelevance?: number | null | undefined;
  recencyWeight?: number | undefined;
  includeAssociations?: boolean | undefined;
  traverseDepth?: number | undefined;
  maxExpansion?: number | undefined;
  createdAfter?: string | undefined;
  createdBefore?: string | undefined;
  context?: ConversationTurn[] | undefined;
  ragThreshold?: number | undefined;
  detailLevel?: DetailLevel | undefined;
  includeArchived?: boolean | undefined;
  excludeIds?: string[] | undefined;
  /** The caller's current context (its session's), preferred by the scope boost when `contextId` is not given. */
  scopeContextId?: string | undefined;
  /** Add `explanation` to the result and to each memory (explain.ts). */
  explain?: boolean | undefined;
}

export interface RecalledMemory extends Memory {
  /** Same as `relevance_score` (the reference's older name). */
  relevance: number;
  /** Evidence that the memory answers the query, 0..1, before boosts; compared with the tolerance floor. */
  relevance_score: number;
  /** The ranking score: fused rank evidence x scope x recency x backlink boosts (expansions: the graph formula). */
  boosted_score: number;
  trust_score: number;
  freshness: number;
  staleness: Staleness;
  match_signals: MatchSignal[];
  /** With `explain`. */
  explanation?: ResultExplanation;
}

export interface TokenSummary {
  returned: number;
  full_would_be: number;
  savings_percent: number;
}

export interface RecallResult {
  memories: RecalledMemory[];
  total_count: number;
  /** Memories that passed the relevance floor among the candidates, before the limit (at most the arms' depth). */
  matched_count: number;
  mode_used: 'rag' | 'hybrid';
  /** Server-side time of the whole recall, query embedding included. */
  search_latency_ms: number;
  /** Of which: embedding the query (0 when its vector was cached). */
  query_embedding_ms: number;
  query_tokens: number;
  query_rewritten: string | null;
  token_summary: TokenSummary;
  intents: Intent[];
  cached: boolean;
  /** With `explain`. */
  explanation?: RecallExplanation;
}

import type { RecalledMemory, RecallResult } from '../../core/recall/types.js';
import { DEFAULT_CONTEXT } from '../../core/memories/records.js';

/** A field kept only where it says something: not null, not empty, not its default. */
const said = (value: unknown): boolean =>
  value !== null &&
  value !== undefined &&
  !(Array.isArray(value) && value.length === 0) &&
  !(typeof value === 'object' && !Array.isArray(value) && Object.keys(value as object).length === 0);

/**
 * A recalled memory as a model reads it: what it says, of whom, when, and why it was found. The store's bookkeeping
 * (workspace and tenant, content hash, access counters, decay, the abstract and overview tiers that repeat the text,
 * the ranking's inner scores) is left out, and so is every field that is empty or at its default: seven memories
 * holding 312 characters of text came to 6,821 characters of the model's context, now 1,627 (2026-12-05, a personal
 * assistant's notes). The HTTP API answers the whole record.
 */
export function memoryForModel(memory: RecalledMemory): Record<string, unknown> {
  const fields: Record<string, unknown> = {
    id: memory.id,
    content: memory.content,
    type: memory.type,
    subtype: memory.subtype,
    importance: memory.importance,
    tags: memory.tags,
    metadata: memory.metadata,
    context_id: memory.context_id === DEFAULT_CONTEXT ? null : memory.context_id,
    user_id: memory.user_id,
    observer_id: memory.observer_id,
    subject_id: memory.subject_id,
    session_id: memory.session_id,
    // A fact decomposed from a longer memory: the one it came from.
    source_memory_id: memory.source_memory_id,
    pinned: memory.pinned || null,
    status: memory.status === 'active' ? null : memory.status,
    created_at: memory.created_at,
    updated_at: memory.updated_at === memory.created_at ? null : memory.updated_at,
    occurred_at: memory.occurred_at,
    relevance_score: memory.relevance_score,
    match_signals: memory.match_signals,
    staleness: memory.staleness === 'none' ? null : memory.staleness,
    explanation: memory.explanation,
  };
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => said(value)));
}

/** A recall's answer as a model reads it: the memories (`memoryForModel`), how many, and what the query became. */
export function recallForModel(result: RecallResult): Record<string, unknown> {
  const answer: Record<string, unknown> = {
    memories: result.memories.map(memoryForModel),
    total_count: result.total_count,
    query_rewritten: result.query_rewritten,
    explanation: result.explanation,
  };
  return Object.fromEntries(Object.entries(answer).filter(([key, value]) => key === 'memories' || said(value)));
}

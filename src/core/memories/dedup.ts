import type { Memory } from '../../storage/types.js';
import { conflictSignals } from '../contradictions/signals.js';
import { words } from '../text/index.js';
import { contentWords } from '../text/stopwords.js';

/**
 * How a new memory relates to what the workspace already holds. Thresholds apply to cosine similarity, and
 * similarity alone never rewrites a memory: "lives in Paris" and "lives in Berlin" are close in any embedding
 * space, so UPDATE and MERGE also need the words to agree and no sign of conflict.
 */
export interface DedupPolicy {
  enabled: boolean;
  /** Same content words, another wording/casing/punctuation: the existing memory takes the new text. */
  updateThreshold: number;
  /** The new text extends the existing one (its content words are a superset): they become one memory. */
  mergeThreshold: number;
}

export const DEFAULT_DEDUP_POLICY: DedupPolicy = { enabled: true, updateThreshold: 0.95, mergeThreshold: 0.85 };

export type DedupDecision =
  | { action: 'create' }
  | { action: 'skip'; existing: Memory }
  | { action: 'update'; existing: Memory; similarity: number }
  | { action: 'merge'; existing: Memory; similarity: number };

const fingerprint = (text: string): Set<string> => new Set(contentWords(words(text)));

const isSubset = (small: Set<string>, large: Set<string>): boolean => [...small].every((w) => large.has(w));

/** `exact`: an active memory with the same content hash, if any; `similar`: nearest neighbours, best first. */
export function decideDuplicate(
  content: string,
  exact: Memory | null,
  similar: ReadonlyArray<{ memory: Memory; similarity: number }>,
  policy: DedupPolicy,
): DedupDecision {
  if (exact) return { action: 'skip', existing: exact };
  if (!policy.enabled) return { action: 'create' };
  const incoming = fingerprint(content);
  for (const { memory, similarity } of similar) {
    if (similarity < policy.mergeThreshold) break;
    const existing = fingerprint(memory.content);
    const update =
      similarity >= policy.updateThreshold && incoming.size === existing.size && isSubset(incoming, existing);
    // Only where the new text holds every word of the existing one: a new text that says less ("ships every
    // Tuesday" after "ships every second Tuesday") is as often a correction as a shorter restatement, and merged
    // into the longer text it was nowhere to be found. Stored on its own, it is recalled beside the other.
    const merge = incoming.size > 0 && existing.size > 0 && isSubset(existing, incoming);
    // Conflict detection (dates, numbers, slots) is the costly check: only for a pair the words would rewrite.
    if ((!update && !merge) || conflictSignals(content, memory.content).length > 0) continue;
    if (update) return { action: 'update', existing: memory, similarity };
    return { action: 'merge', existing: memory, similarity };
  }
  return { action: 'create' };
}

/** A decision that rewrites an existing memory. */
export type RewriteDecision = Extract<DedupDecision, { action: 'update' | 'merge' }>;

/**
 * A rewrite decided on a memory as read before the write's transaction, held against that memory as the transaction
 * finds it: the same decision while its text is unchanged (on its current tags and metadata), else decided again on
 * what it holds now (another node merged into it or changed it meanwhile), and a new memory when it is no longer
 * active. So no acknowledged text is overwritten by one that never saw it.
 */
export function decidedAgain(
  decision: RewriteDecision,
  current: Memory | undefined,
  content: string,
  policy: DedupPolicy,
): RewriteDecision | { action: 'create' } {
  if (current?.status !== 'active') return { action: 'create' };
  if (current.content === decision.existing.content) return { ...decision, existing: current };
  const again = decideDuplicate(content, null, [{ memory: current, similarity: decision.similarity }], policy);
  return again.action === 'skip' ? { action: 'create' } : again;
}

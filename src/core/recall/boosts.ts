import type { Memory } from '../../storage/types.js';

const HOUR_MS = 3_600_000;
/** Recency half-life of the reference: a week. */
export const RECENCY_HALF_LIFE_HOURS = 168;
/** Scope boost of the reference: the caller's own context x1.5, elsewhere in the workspace x1.2. */
export const SAME_CONTEXT_BOOST = 1.5;
export const SAME_WORKSPACE_BOOST = 1.2;
/**
 * Backlinks: memories other memories point at are more central. The reference names the boost without a formula;
 * ours grows with the logarithm of the count and stays small (3 links x1.10, 7 links x1.15, capped at x1.2).
 */
const BACKLINK_STEP = 0.05;
const BACKLINK_CAP = 1.2;

/** When the memory's event happened if known, else when it was written. */
export const eventTime = (memory: Pick<Memory, 'occurred_at' | 'created_at'>): string =>
  memory.occurred_at ?? memory.created_at;

/** x(1 - w + w * 2^(-age_hours / 168)): w = 0 ignores age, w = 1 halves the score every week. */
export function recencyFactor(memory: Pick<Memory, 'occurred_at' | 'created_at'>, now: Date, weight: number): number {
  if (weight <= 0) return 1;
  const ageHours = Math.max(0, (now.getTime() - Date.parse(eventTime(memory))) / HOUR_MS);
  return 1 - weight + weight * 2 ** (-ageHours / RECENCY_HALF_LIFE_HOURS);
}

/** x1.5 in the caller's context (explicit or its session's), x1.2 elsewhere in the workspace or when none is known. */
export function scopeFactor(memory: Pick<Memory, 'context_id'>, scopeContextId: string | undefined): number {
  return scopeContextId !== undefined && memory.context_id === scopeContextId
    ? SAME_CONTEXT_BOOST
    : SAME_WORKSPACE_BOOST;
}

export function backlinkFactor(incoming: number): number {
  return incoming > 0 ? Math.min(BACKLINK_CAP, 1 + BACKLINK_STEP * Math.log2(1 + incoming)) : 1;
}

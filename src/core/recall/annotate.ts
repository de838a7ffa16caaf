import type { Memory } from '../../storage/types.js';
import type { Staleness } from './types.js';

const DAY_MS = 86_400_000;
const FRESHNESS_HALF_LIFE_DAYS = 7;
const RECENT_ACCESS_BONUS = 0.05;

/**
 * Age for freshness and staleness: since the memory's content last changed (`updated_at`). A memory re-stated or
 * corrected yesterday is fresh information even if it was first written a year ago.
 */
const ageDays = (memory: Memory, now: Date): number =>
  Math.max(0, (now.getTime() - Date.parse(memory.updated_at)) / DAY_MS);

/** 2^(-age_days / 7), +0.05 when recalled or read in the last 24 h, capped at 1 (reference formula). */
export function freshness(memory: Memory, now: Date): number {
  const base = 2 ** (-ageDays(memory, now) / FRESHNESS_HALF_LIFE_DAYS);
  const accessedRecently =
    memory.last_accessed_at !== null && now.getTime() - Date.parse(memory.last_accessed_at) < DAY_MS;
  return Math.min(1, base + (accessedRecently ? RECENT_ACCESS_BONUS : 0));
}

/** none (< 1 day), mild (< 7), moderate (< 30), severe. */
export function staleness(memory: Memory, now: Date): Staleness {
  const days = ageDays(memory, now);
  if (days < 1) return 'none';
  if (days < 7) return 'mild';
  if (days < 30) return 'moderate';
  return 'severe';
}

/** How reliable the memory's origin is: derived from another memory 1, stated by a client 0.8, else 0.6. */
function sourceReliability(memory: Memory): number {
  if (memory.source_memory_id !== null) return 1;
  return memory.source_scope === null ? 0.8 : 0.6;
}

/**
 * Reference formula: 0.3 freshness + 0.2 min(access_count / 10, 1) + 0.2 decay_factor + 0.15 verification
 * (1 if pinned or metadata.verified, else 0.5) + 0.15 source reliability.
 */
export function trustScore(memory: Memory, fresh: number): number {
  const verified = memory.pinned || memory.metadata.verified === true ? 1 : 0.5;
  const score =
    0.3 * fresh +
    0.2 * Math.min(memory.access_count / 10, 1) +
    0.2 * memory.decay_factor +
    0.15 * verified +
    0.15 * sourceReliability(memory);
  return Math.min(1, Math.max(0, score));
}

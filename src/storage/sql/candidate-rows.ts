import type { Selectable } from 'kysely';
import type { MemoriesTable } from '../database.js';
import { toIso, toIsoOrNull } from '../rows.js';
import type { CandidateRow } from '../types.js';

/** The columns recall ranks by (MemoryCandidate). */
export const CANDIDATE_COLUMNS = [
  'id',
  'seq',
  'content',
  'context_id',
  'session_id',
  'subject_id',
  'source_scope',
  'source_memory_id',
  'occurred_at',
  'created_at',
  'mentioned_from',
  'mentioned_to',
] as const;

export function toCandidateRow({
  similarity,
  mentioned_from,
  mentioned_to,
  ...row
}: Pick<Selectable<MemoriesTable>, (typeof CANDIDATE_COLUMNS)[number]> & { similarity: number | null }): CandidateRow {
  return {
    memory: {
      ...row,
      seq: Number(row.seq),
      occurred_at: toIsoOrNull(row.occurred_at),
      created_at: toIso(row.created_at),
      mentions: mentioned_from && mentioned_to ? { start: toIso(mentioned_from), end: toIso(mentioned_to) } : null,
    },
    similarity: similarity === null ? null : Number(similarity),
  };
}

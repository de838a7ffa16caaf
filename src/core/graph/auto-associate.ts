import type { Memory } from '../../storage/types.js';
import { words } from '../text/index.js';
import type { RelationshipType } from './taxonomy.js';

export const AUTO_ASSOCIATE_LIMIT = 5;
export const AUTO_ASSOCIATE_MIN_SIMILARITY = 0.6;
/** Above this a similar memory is a near-copy of the other (`variant_of`). */
const VARIANT_SIMILARITY = 0.9;

type Role = 'problem' | 'fix' | 'approach';
const ROLE_BY_SUBTYPE: Readonly<Record<string, Role>> = {
  problem: 'problem',
  error: 'problem',
  solution: 'fix',
  fix: 'fix',
  code_pattern: 'approach',
  workflow: 'approach',
};

/** What a newer memory of one role states about an older one of another (a fix solves a problem, …). */
const ROLE_RELATIONSHIPS: ReadonlyArray<[Role, Role, RelationshipType]> = [
  ['fix', 'problem', 'solves'],
  ['problem', 'fix', 'solved_by'],
  ['approach', 'problem', 'addresses'],
  ['problem', 'approach', 'addressed_by'],
];

/** Subtypes whose newer statement about the same subject replaces the older one when it says so. */
const REPLACEABLE = new Set(['decision', 'preference', 'profile', 'directive']);
const CHANGE_CUES = new Set([
  'now',
  'instead',
  'anymore',
  'longer',
  'switched',
  'changed',
  'moved',
  'replaced',
  'replaces',
  'no',
]);

/**
 * The relationship an automatic link states, from the newer memory to an older similar one, picked from the taxonomy:
 * - problem and fix subtypes: `solves` / `solved_by`, approaches (code patterns, workflows) `addresses` / `addressed_by`;
 * - a decision or preference about the same subject that says it changed ("now", "instead", "no longer"): `supersedes`;
 * - two events with known times: `after`, `before` or `concurrent_with`;
 * - otherwise a near-copy is a `variant_of`, anything else `similar_to`.
 * Deterministic in its inputs, so a re-run of enrichment states the same edge again (an upsert, not a second edge).
 */
export function chooseRelationship(from: Memory, to: Memory, similarity: number): RelationshipType {
  const fromRole = from.subtype ? ROLE_BY_SUBTYPE[from.subtype] : undefined;
  const toRole = to.subtype ? ROLE_BY_SUBTYPE[to.subtype] : undefined;
  const byRole = ROLE_RELATIONSHIPS.find(([a, b]) => a === fromRole && b === toRole);
  if (byRole) return byRole[2];
  if (supersedes(from, to)) return 'supersedes';
  if (from.type === 'episodic' && to.type === 'episodic' && from.occurred_at && to.occurred_at) {
    const order = Date.parse(from.occurred_at) - Date.parse(to.occurred_at);
    return order > 0 ? 'after' : order < 0 ? 'before' : 'concurrent_with';
  }
  return similarity >= VARIANT_SIMILARITY ? 'variant_of' : 'similar_to';
}

function supersedes(from: Memory, to: Memory): boolean {
  if (!from.subtype || from.subtype !== to.subtype || !REPLACEABLE.has(from.subtype)) return false;
  if (!from.subject_id || from.subject_id !== to.subject_id) return false;
  return words(from.content).some((w) => CHANGE_CUES.has(w));
}

import type { Memory } from '../../storage/types.js';
import type { RelationshipType } from './taxonomy.js';

export const AUTO_ASSOCIATE_LIMIT = 5;
export const AUTO_ASSOCIATE_MIN_SIMILARITY = 0.6;

const SOLUTIONS = new Set(['solution', 'fix']);
const PROBLEMS = new Set(['problem', 'error']);

/**
 * The relationship an automatic link states, from the newer memory to an older similar one: a fix for a problem
 * `solves` it, a near-copy is a `variant_of`, anything else is `similar_to`.
 */
export function chooseRelationship(from: Memory, to: Memory, similarity: number): RelationshipType {
  if (from.subtype && to.subtype) {
    if (SOLUTIONS.has(from.subtype) && PROBLEMS.has(to.subtype)) return 'solves';
    if (PROBLEMS.has(from.subtype) && SOLUTIONS.has(to.subtype)) return 'solved_by';
  }
  return similarity >= 0.9 ? 'variant_of' : 'similar_to';
}

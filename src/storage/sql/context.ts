import type { Kysely } from 'kysely';
import type { Database } from '../database.js';
import type { SearchEngine } from './search-engine.js';

/** What every repository needs: the executor (root or transaction), the dialect seam, and commit hooks. */
export interface SqlContext {
  readonly db: Kysely<Database>;
  readonly engine: SearchEngine;
  /** Runs `effect` once the surrounding transaction has committed (at once outside a transaction). */
  afterCommit(effect: () => void): void;
}

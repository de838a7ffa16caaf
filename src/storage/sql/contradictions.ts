import type { Selectable } from 'kysely';
import type { ContradictionsTable } from '../database.js';
import { toIso, toIsoOrNull } from '../rows.js';
import type { Contradiction, ContradictionResolution, ContradictionStore } from '../types.js';
import type { SqlContext } from './context.js';

const toContradiction = (row: Selectable<ContradictionsTable>): Contradiction => ({
  id: row.id,
  workspace_id: row.workspace_id,
  memory_a_id: row.memory_a_id,
  memory_b_id: row.memory_b_id,
  contradiction_type: row.contradiction_type,
  confidence: row.confidence,
  detection_method: row.detection_method,
  explanation: row.explanation,
  detected_at: toIso(row.detected_at),
  resolved_at: toIsoOrNull(row.resolved_at),
  resolution: row.resolution as ContradictionResolution | null,
  merged_memory_id: row.merged_memory_id,
});

export class SqlContradictionStore implements ContradictionStore {
  constructor(private readonly ctx: SqlContext) {}

  async insert(contradiction: Contradiction): Promise<boolean> {
    const { db } = this.ctx;
    const { memory_a_id: a, memory_b_id: b } = contradiction;
    const reversed = await db
      .selectFrom('contradictions')
      .select('id')
      .where('memory_a_id', '=', b)
      .where('memory_b_id', '=', a)
      .executeTakeFirst();
    if (reversed) return false;
    const inserted = await db
      .insertInto('contradictions')
      .values(contradiction)
      .onConflict((oc) => oc.columns(['memory_a_id', 'memory_b_id']).doNothing())
      .returning('id')
      .executeTakeFirst();
    return inserted !== undefined;
  }

  async get(workspaceId: string, id: string): Promise<Contradiction | null> {
    const row = await this.ctx.db
      .selectFrom('contradictions')
      .selectAll()
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? toContradiction(row) : null;
  }

  async listUnresolved(workspaceId: string, limit: number): Promise<Contradiction[]> {
    const rows = await this.ctx.db
      .selectFrom('contradictions')
      .selectAll()
      .where('workspace_id', '=', workspaceId)
      .where('resolved_at', 'is', null)
      .orderBy('detected_at', 'desc')
      .orderBy('id')
      .limit(limit)
      .execute();
    return rows.map(toContradiction);
  }

  async countUnresolved(workspaceId: string): Promise<number> {
    const row = await this.ctx.db
      .selectFrom('contradictions')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('workspace_id', '=', workspaceId)
      .where('resolved_at', 'is', null)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async claimResolution(
    workspaceId: string,
    id: string,
    resolution: ContradictionResolution,
    at: string,
  ): Promise<Contradiction | null> {
    const row = await this.ctx.db
      .updateTable('contradictions')
      .set({ resolution, resolved_at: at })
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', id)
      .where('resolved_at', 'is', null)
      .returningAll()
      .executeTakeFirst();
    return row ? toContradiction(row) : null;
  }

  async update(
    workspaceId: string,
    id: string,
    patch: Partial<Pick<Contradiction, 'resolved_at' | 'resolution' | 'merged_memory_id'>>,
  ): Promise<Contradiction | null> {
    const row = await this.ctx.db
      .updateTable('contradictions')
      .set(patch)
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
    return row ? toContradiction(row) : null;
  }
}

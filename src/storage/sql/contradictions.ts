import { sql, type Selectable } from 'kysely';
import type { ContradictionsTable } from '../database.js';
import { toIso, toIsoOrNull } from '../rows.js';
import type { ContradictedPair, Contradiction, ContradictionResolution, ContradictionStore } from '../types.js';
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

/** Pairs a statement: 12 columns each stays well within either engine's bound parameters. */
const INSERT_CHUNK = 250;

export class SqlContradictionStore implements ContradictionStore {
  constructor(private readonly ctx: SqlContext) {}

  async insert(contradiction: Contradiction): Promise<boolean> {
    return (await this.insertMany([contradiction])).length === 1;
  }

  async insertMany(contradictions: readonly Contradiction[]): Promise<Contradiction[]> {
    const firstOfPair = new Map<string, Contradiction>();
    for (const c of contradictions) {
      const pair = [c.memory_a_id, c.memory_b_id].sort().join(' ');
      if (!firstOfPair.has(pair)) firstOfPair.set(pair, c);
    }
    const wanted = [...firstOfPair.values()];
    const recorded: Contradiction[] = [];
    for (let start = 0; start < wanted.length; start += INSERT_CHUNK) {
      const chunk = wanted.slice(start, start + INSERT_CHUNK);
      // Pairs recorded the other way round (b, a) are recorded already.
      const reversed = await this.ctx.db
        .selectFrom('contradictions')
        .select(['memory_a_id', 'memory_b_id'])
        .where(
          sql<boolean>`(memory_a_id, memory_b_id) IN (VALUES ${sql.join(chunk.map((c) => sql`(${c.memory_b_id}, ${c.memory_a_id})`))})`,
        )
        .execute();
      const recordedReversed = new Set(reversed.map((r) => `${r.memory_b_id} ${r.memory_a_id}`));
      const fresh = chunk.filter((c) => !recordedReversed.has(`${c.memory_a_id} ${c.memory_b_id}`));
      if (fresh.length === 0) continue;
      const inserted = await this.ctx.db
        .insertInto('contradictions')
        .values(fresh)
        .onConflict((oc) => oc.columns(['memory_a_id', 'memory_b_id']).doNothing())
        .returning('id')
        .execute();
      const ids = new Set(inserted.map((row) => row.id));
      recorded.push(...fresh.filter((c) => ids.has(c.id)));
    }
    return recorded;
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

  async unresolvedOf(workspaceId: string, memoryIds: readonly string[]): Promise<Contradiction[]> {
    if (memoryIds.length === 0) return [];
    // The pair's unique index leads with memory_a_id, `contradictions_b` holds memory_b_id: a lookup per id either way.
    const rows = await this.ctx.db
      .selectFrom('contradictions')
      .selectAll()
      .where('workspace_id', '=', workspaceId)
      .where((eb) => eb.or([eb('memory_a_id', 'in', memoryIds), eb('memory_b_id', 'in', memoryIds)]))
      .where('resolved_at', 'is', null)
      .orderBy('id')
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

  async laterContradicting(workspaceId: string, earlierIds: readonly string[]): Promise<ContradictedPair[]> {
    if (earlierIds.length === 0) return [];
    // The pair's unique index leads with memory_a_id: a lookup per id. A later memory deleted (or archived) without
    // resolving the pair no longer says otherwise.
    const rows = await this.ctx.db
      .selectFrom('contradictions as c')
      .innerJoin('memories as later', 'later.id', 'c.memory_b_id')
      .select(['c.memory_a_id', 'c.memory_b_id'])
      .where('c.workspace_id', '=', workspaceId)
      .where('c.memory_a_id', 'in', earlierIds)
      .where('c.resolved_at', 'is', null)
      .where('later.status', '=', 'active')
      .execute();
    return rows.map((row) => ({ earlier: row.memory_a_id, later: row.memory_b_id }));
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

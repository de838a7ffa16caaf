import { sql, type OnConflictBuilder, type Selectable } from 'kysely';
import type { AssociationsTable, Database } from '../database.js';
import { json, parseJsonObject, toIso } from '../rows.js';
import type { Association, AssociationStore, Direction, GraphEdge, MemoryFilter, NeighbourRow } from '../types.js';
import { CANDIDATE_COLUMNS, toCandidateRow } from './candidate-rows.js';
import type { SqlContext } from './context.js';
import { memoryFilter } from './memory-filter.js';

const toAssociation = (row: Selectable<AssociationsTable>): Association => ({
  id: row.id,
  workspace_id: row.workspace_id,
  source_id: row.source_id,
  target_id: row.target_id,
  relationship: row.relationship,
  strength: row.strength,
  metadata: parseJsonObject(row.metadata),
  created_at: toIso(row.created_at),
});

interface EdgeQuery {
  relationships?: string[] | undefined;
  excludeRelationships?: readonly string[] | undefined;
  minStrength?: number | undefined;
  limit?: number | undefined;
}

/**
 * Edges a statement: 8 columns each keeps a statement within PostgreSQL's 65,535 parameters and SQLite's 32,766, and
 * one row conflicting twice in one PostgreSQL statement is avoided by keeping one edge per key.
 */
const UPSERT_CHUNK = 500;

/** An edge written again (same source, target and relationship) keeps its id and takes the new strength and metadata. */
const updateTheEdge = (oc: OnConflictBuilder<Database, 'associations'>) =>
  oc.columns(['source_id', 'target_id', 'relationship']).doUpdateSet((eb) => ({
    strength: eb.ref('excluded.strength'),
    metadata: eb.ref('excluded.metadata'),
  }));

export class SqlAssociationStore implements AssociationStore {
  constructor(private readonly ctx: SqlContext) {}

  async upsert(a: Association): Promise<Association> {
    const row = await this.ctx.db
      .insertInto('associations')
      .values({ ...a, metadata: json(a.metadata) })
      .onConflict(updateTheEdge)
      .returningAll()
      .executeTakeFirstOrThrow();
    return toAssociation(row);
  }

  async upsertMany(associations: readonly Association[]): Promise<void> {
    const byKey = new Map<string, Association>();
    for (const a of associations) {
      const key = JSON.stringify([a.source_id, a.target_id, a.relationship]);
      const first = byKey.get(key);
      // As upserting them in order: the first inserts the edge, each later one sets its strength and metadata.
      byKey.set(key, first ? { ...first, strength: a.strength, metadata: a.metadata } : a);
    }
    const rows = [...byKey.values()].map((a) => ({ ...a, metadata: json(a.metadata) }));
    for (let start = 0; start < rows.length; start += UPSERT_CHUNK) {
      await this.ctx.db
        .insertInto('associations')
        .values(rows.slice(start, start + UPSERT_CHUNK))
        .onConflict(updateTheEdge)
        .execute();
    }
  }

  async get(workspaceId: string, id: string): Promise<Association | null> {
    const row = await this.ctx.db
      .selectFrom('associations')
      .selectAll()
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? toAssociation(row) : null;
  }

  listForMemories(
    workspaceId: string,
    memoryIds: readonly string[],
    options: { direction: Direction; relationships?: string[] },
  ): Promise<Association[]> {
    return this.edges(workspaceId, memoryIds, options.direction, { relationships: options.relationships }, false);
  }

  neighbours(
    workspaceId: string,
    memoryIds: readonly string[],
    options: {
      direction: Direction;
      relationships?: string[];
      excludeRelationships?: readonly string[];
      minStrength?: number;
      limit?: number;
    },
  ): Promise<Association[]> {
    return this.edges(workspaceId, memoryIds, options.direction, options, true);
  }

  async neighbourRows(
    workspaceId: string,
    memoryIds: readonly string[],
    options: { excludeRelationships?: readonly string[]; filter: MemoryFilter },
  ): Promise<NeighbourRow[]> {
    if (memoryIds.length === 0) return [];
    const sides = [
      ['source_id', 'target_id'],
      ['target_id', 'source_id'],
    ] as const;
    const filter = memoryFilter(this.ctx.engine, workspaceId, options.filter);
    // Unordered: the caller orders each node's edges, which come from both sides.
    const queries = sides.map(([near, far]) => {
      let q = this.ctx.db
        .selectFrom('associations')
        .innerJoin('memories', 'memories.id', `associations.${far}`)
        // The edge's id under its own name: both tables have one.
        .select([
          'associations.id as edge_id',
          'associations.source_id',
          'associations.target_id',
          'associations.relationship',
          'associations.strength',
        ])
        .select(sql.ref<string>(`associations.${near}`).as('near'))
        .select(CANDIDATE_COLUMNS.map((column) => `memories.${column}` as const))
        .where('associations.workspace_id', '=', workspaceId)
        .where((eb) => this.ctx.engine.anyOf(eb.ref(`associations.${near}`), memoryIds))
        // As `neighbours`: the far end is active, whatever statuses the filter allows.
        .where('memories.status', '=', 'active')
        // The filter names the memories' columns only, which this join has too.
        .where((eb) => filter(eb as never));
      if (options.excludeRelationships?.length)
        q = q.where('associations.relationship', 'not in', [...options.excludeRelationships]);
      return q;
    });
    const found: NeighbourRow[] = [];
    for (const rows of await this.ctx.engine.read(this.ctx.db, queries))
      for (const { edge_id, source_id, target_id, relationship, strength, near, ...memory } of rows)
        found.push({
          near,
          edge: { id: edge_id, source_id, target_id, relationship, strength },
          memory: toCandidateRow({ ...memory, similarity: null }).memory,
        });
    return found;
  }

  /** Edges leaving (`outgoing`) or entering (`incoming`) the given memories; `activeFarEnd` skips edges to non-active memories. */
  private async edges(
    workspaceId: string,
    memoryIds: readonly string[],
    direction: Direction,
    query: EdgeQuery,
    activeFarEnd: boolean,
  ): Promise<Association[]> {
    if (memoryIds.length === 0) return [];
    const sides: Array<['source_id' | 'target_id', 'source_id' | 'target_id']> = [];
    if (direction !== 'incoming') sides.push(['source_id', 'target_id']);
    if (direction !== 'outgoing') sides.push(['target_id', 'source_id']);
    const queries = sides.map(([near, far]) => {
      let q = this.ctx.db
        .selectFrom('associations')
        .selectAll('associations')
        .where('associations.workspace_id', '=', workspaceId)
        .where((eb) => this.ctx.engine.anyOf(eb.ref(`associations.${near}`), memoryIds));
      if (activeFarEnd) {
        q = q.innerJoin('memories', 'memories.id', `associations.${far}`).where('memories.status', '=', 'active');
      }
      if (query.relationships?.length) q = q.where('associations.relationship', 'in', query.relationships);
      if (query.excludeRelationships?.length)
        q = q.where('associations.relationship', 'not in', [...query.excludeRelationships]);
      if (query.minStrength !== undefined && query.minStrength > 0)
        q = q.where('associations.strength', '>=', query.minStrength);
      q = q.orderBy('associations.strength', 'desc').orderBy('associations.id');
      if (query.limit !== undefined) q = q.limit(query.limit);
      return q;
    });
    // Off the main thread where the engine can (SQLite's reader thread): recall reads its dense candidates meanwhile.
    const seen = new Map<string, Association>();
    for (const rows of await this.ctx.engine.read(this.ctx.db, queries))
      for (const row of rows) seen.set(row.id, toAssociation(row));
    return [...seen.values()];
  }

  async scan(workspaceId: string, afterId: string | null, limit: number): Promise<Association[]> {
    let q = this.ctx.db.selectFrom('associations').selectAll().where('workspace_id', '=', workspaceId);
    if (afterId !== null) q = q.where('id', '>', afterId);
    const rows = await q.orderBy('id').limit(limit).execute();
    return rows.map(toAssociation);
  }

  async scanEdges(workspaceId: string, afterId: string | null, limit: number): Promise<GraphEdge[]> {
    let q = this.ctx.db
      .selectFrom('associations')
      .select(['id', 'source_id', 'target_id', 'relationship', 'strength'])
      .where('workspace_id', '=', workspaceId);
    if (afterId !== null) q = q.where('id', '>', afterId);
    return q.orderBy('id').limit(limit).execute();
  }

  async incomingCounts(
    workspaceId: string,
    memoryIds: readonly string[],
    options: { excludeRelationships?: readonly string[] } = {},
  ): Promise<Map<string, number>> {
    if (memoryIds.length === 0) return new Map();
    let q = this.ctx.db
      .selectFrom('associations')
      .select(['target_id', (eb) => eb.fn.countAll().as('n')])
      .where('workspace_id', '=', workspaceId)
      .where((eb) => this.ctx.engine.anyOf(eb.ref('target_id'), memoryIds));
    if (options.excludeRelationships?.length) q = q.where('relationship', 'not in', [...options.excludeRelationships]);
    // Off the main thread where the engine can (SQLite's reader thread): recall counts while it ranks.
    const [rows] = await this.ctx.engine.read(this.ctx.db, [q.groupBy('target_id')]);
    return new Map(rows!.map((r) => [r.target_id, Number(r.n)]));
  }

  async delete(workspaceId: string, id: string): Promise<boolean> {
    const result = await this.ctx.db
      .deleteFrom('associations')
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async count(workspaceId: string): Promise<number> {
    const row = await this.ctx.db
      .selectFrom('associations')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('workspace_id', '=', workspaceId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }
}

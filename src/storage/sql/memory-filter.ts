import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { Database } from '../database.js';
import type { MemoryFilter } from '../types.js';
import type { SearchEngine } from './search-engine.js';

export type FilterBuilder = (eb: ExpressionBuilder<Database, 'memories'>) => Expression<SqlBool>;

/** The WHERE clause of every memory query: workspace first (the tenant boundary), then the caller's filter. */
export function memoryFilter(
  engine: SearchEngine,
  workspaceId: string | null,
  filter: MemoryFilter = {},
): FilterBuilder {
  return (eb) => {
    const conditions: Expression<SqlBool>[] = [];
    if (workspaceId !== null) conditions.push(eb('memories.workspace_id', '=', workspaceId));
    const statuses = filter.statuses ?? ['active'];
    conditions.push(
      statuses.length === 1 ? eb('memories.status', '=', statuses[0]!) : eb('memories.status', 'in', statuses),
    );
    if (filter.ids)
      conditions.push(filter.ids.length ? engine.anyOf(eb.ref('memories.id'), filter.ids) : sql<SqlBool>`1 = 0`);
    if (filter.excludeIds?.length) conditions.push(eb('memories.id', 'not in', filter.excludeIds));
    if (filter.types?.length) conditions.push(eb('memories.type', 'in', filter.types));
    if (filter.subtypes?.length) conditions.push(eb('memories.subtype', 'in', filter.subtypes));
    if (filter.tags?.length) conditions.push(engine.jsonArrayContainsAll(eb.ref('memories.tags'), filter.tags));
    if (filter.contextId !== undefined) conditions.push(eb('memories.context_id', '=', filter.contextId));
    if (filter.userId !== undefined) conditions.push(eb('memories.user_id', '=', filter.userId));
    if (filter.sessionId !== undefined) conditions.push(eb('memories.session_id', '=', filter.sessionId));
    if (filter.observerId !== undefined) conditions.push(eb('memories.observer_id', '=', filter.observerId));
    if (filter.subjectId !== undefined) conditions.push(eb('memories.subject_id', '=', filter.subjectId));
    if (filter.sourceMemoryId !== undefined)
      conditions.push(eb('memories.source_memory_id', '=', filter.sourceMemoryId));
    if (filter.derived !== undefined) {
      conditions.push(
        filter.derived ? eb('memories.source_memory_id', 'is not', null) : eb('memories.source_memory_id', 'is', null),
      );
    }
    if (filter.createdAfter !== undefined) conditions.push(eb('memories.created_at', '>=', filter.createdAfter));
    if (filter.createdBefore !== undefined) conditions.push(eb('memories.created_at', '<=', filter.createdBefore));
    if (filter.sourceScopes)
      conditions.push(
        filter.sourceScopes.length ? eb('memories.source_scope', 'in', filter.sourceScopes) : sql<SqlBool>`1 = 0`,
      );
    if (filter.excludeSourceScopes?.length) {
      conditions.push(
        eb.or([
          eb('memories.source_scope', 'is', null),
          eb('memories.source_scope', 'not in', filter.excludeSourceScopes),
        ]),
      );
    }
    if (filter.during !== undefined) {
      const { start, end } = filter.during;
      const eventTime = eb.fn.coalesce('memories.occurred_at', 'memories.created_at');
      conditions.push(
        eb.or([
          eb.and([eb(eventTime, '>=', start), eb(eventTime, '<=', end)]),
          eb.and([eb('memories.mentioned_from', '<=', end), eb('memories.mentioned_to', '>=', start)]),
        ]),
      );
    }
    return eb.and(conditions);
  };
}

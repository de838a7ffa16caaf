import type { LocatableKind, ObjectLocator } from '../types.js';
import type { SqlContext } from './context.js';

/** The table of each kind; every one of them has `id` and `workspace_id` columns. */
const TABLES = {
  memory: 'memories',
  association: 'associations',
  session: 'sessions',
  thread: 'chat_threads',
  document: 'documents',
  ingestion_job: 'ingestion_jobs',
  knowledgebase_job: 'kb_jobs',
  skill: 'skills',
  mcp_server: 'mcp_servers',
  data_provider: 'data_providers',
  contradiction: 'contradictions',
} as const satisfies Record<LocatableKind, string>;

export class SqlObjectLocator implements ObjectLocator {
  constructor(private readonly ctx: SqlContext) {}

  async workspacesOf(kind: LocatableKind, id: string): Promise<Array<string | null>> {
    // The tables differ in their other columns only; `id` and `workspace_id` read the same in each.
    const table = TABLES[kind] as 'skills';
    const rows = await this.ctx.db
      .selectFrom(table)
      .select('workspace_id')
      .where('id', '=', id)
      .orderBy('workspace_id')
      .execute();
    return rows.map((row) => row.workspace_id);
  }
}

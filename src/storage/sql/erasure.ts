import type { Selectable } from 'kysely';
import type { ErasuresTable } from '../database.js';
import { json, parseJson, toIso } from '../rows.js';
import type { ErasureAudit, ErasureCounts, ErasureStore, PersonalRecords, PersonSelector } from '../types.js';
import type { SqlContext } from './context.js';

/** Ids per statement: well under the bound-parameter limits of both engines. */
const CHUNK = 500;

function chunks<T>(items: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let start = 0; start < items.length; start += CHUNK) out.push(items.slice(start, start + CHUNK));
  return out;
}

const toAudit = (row: Selectable<ErasuresTable>): ErasureAudit => ({
  id: row.id,
  erased_at: toIso(row.erased_at),
  requested_by: row.requested_by,
  selector_kind: row.selector_kind as PersonSelector['kind'],
  selector_hash: row.selector_hash,
  workspaces: parseJson<string[]>(row.workspaces),
  removed: parseJson<ErasureCounts>(row.removed),
});

/**
 * Every table that can hold a person's id or what was said about them, in one file: memories (user_id, subject_id)
 * and what derives from or quotes them (facts and insights, links, contradictions, document links, knowledgebase
 * articles, entity cards), sessions (user_id) with their working memory and sandbox checkpoints, threads (user_id,
 * subject_id) with their messages, and user-owned registry entries (skills, MCP servers). The erasure conformance
 * test lists the same columns and searches every table afterwards.
 */
export class SqlErasureStore implements ErasureStore {
  constructor(private readonly ctx: SqlContext) {}

  async find(workspaceId: string, selector: PersonSelector): Promise<PersonalRecords> {
    const { db } = this.ctx;
    const found = new Map<string, string | null>();
    const direct = await db
      .selectFrom('memories')
      .select(['id', 'subject_id'])
      .where('workspace_id', '=', workspaceId)
      .where(selector.kind, '=', selector.id)
      .execute();
    for (const row of direct) found.set(row.id, row.subject_id);
    // Derived memories (facts of a memory, insights from it) repeat what it says, whoever they name.
    let frontier = [...found.keys()];
    while (frontier.length > 0) {
      const next: string[] = [];
      for (const ids of chunks(frontier)) {
        const rows = await db
          .selectFrom('memories')
          .select(['id', 'subject_id'])
          .where('workspace_id', '=', workspaceId)
          .where('source_memory_id', 'in', ids)
          .execute();
        for (const row of rows) {
          if (found.has(row.id)) continue;
          found.set(row.id, row.subject_id);
          next.push(row.id);
        }
      }
      frontier = next;
    }
    const sessions =
      selector.kind === 'user_id'
        ? await db
            .selectFrom('sessions')
            .select('id')
            .where('workspace_id', '=', workspaceId)
            .where('user_id', '=', selector.id)
            .execute()
        : [];
    const threads = await db
      .selectFrom('chat_threads')
      .select('id')
      .where('workspace_id', '=', workspaceId)
      .where(selector.kind, '=', selector.id)
      .execute();
    return {
      memoryIds: [...found.keys()],
      subjectIds: [...new Set([...found.values()].filter((subject): subject is string => subject !== null))],
      sessionIds: sessions.map((s) => s.id),
      threadIds: threads.map((t) => t.id),
    };
  }

  async removeAround(
    workspaceId: string,
    selector: PersonSelector,
    records: PersonalRecords,
  ): Promise<Omit<ErasureCounts, 'memories'>> {
    const { db } = this.ctx;
    const associations = new Set<string>();
    const contradictions = new Set<string>();
    const articles = new Set<string>();
    let documentLinks = 0;
    // Links, contradictions and document links go with the memories (ON DELETE CASCADE): counted here, before.
    for (const ids of chunks(records.memoryIds)) {
      const edges = await db
        .selectFrom('associations')
        .select('id')
        .where('workspace_id', '=', workspaceId)
        .where((eb) => eb.or([eb('source_id', 'in', ids), eb('target_id', 'in', ids)]))
        .execute();
      for (const edge of edges) associations.add(edge.id);
      const pairs = await db
        .selectFrom('contradictions')
        .select('id')
        .where('workspace_id', '=', workspaceId)
        .where((eb) => eb.or([eb('memory_a_id', 'in', ids), eb('memory_b_id', 'in', ids)]))
        .execute();
      for (const pair of pairs) contradictions.add(pair.id);
      const links = await db
        .selectFrom('document_memories')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('workspace_id', '=', workspaceId)
        .where('memory_id', 'in', ids)
        .executeTakeFirstOrThrow();
      documentLinks += Number(links.n);
      const citing = await db
        .selectFrom('kb_article_memories')
        .select('article_id')
        .where('workspace_id', '=', workspaceId)
        .where('memory_id', 'in', ids)
        .execute();
      for (const row of citing) articles.add(row.article_id);
    }
    return {
      associations: associations.size,
      contradictions: contradictions.size,
      document_links: documentLinks,
      knowledgebase_articles: await this.removeArticles(workspaceId, [...articles]),
      entity_cards: await this.removeCards(
        workspaceId,
        selector.kind === 'subject_id' ? [...records.subjectIds, selector.id] : records.subjectIds,
      ),
      ...(await this.removeSessions(workspaceId, records.sessionIds)),
      ...(await this.removeThreads(workspaceId, records.threadIds)),
      ...(await this.removeRegistryEntries(selector, workspaceId)),
    };
  }

  purgeSearchEntries(): Promise<void> {
    return this.ctx.engine.purgeRemovedKeywordEntries(this.ctx.db);
  }

  removeTenantLevel(selector: PersonSelector): Promise<Pick<ErasureCounts, 'skills' | 'mcp_servers'>> {
    return this.removeRegistryEntries(selector, null);
  }

  async recordAudit(audit: ErasureAudit): Promise<void> {
    await this.ctx.db
      .insertInto('erasures')
      .values({ ...audit, workspaces: json(audit.workspaces), removed: json(audit.removed) })
      .execute();
  }

  async listAudits(limit: number): Promise<ErasureAudit[]> {
    const rows = await this.ctx.db
      .selectFrom('erasures')
      .selectAll()
      .orderBy('erased_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
    return rows.map(toAudit);
  }

  /** Articles citing the memories, and the index: it lists their titles. Their memory links go by cascade. */
  private async removeArticles(workspaceId: string, articleIds: readonly string[]): Promise<number> {
    if (articleIds.length === 0) return 0;
    let removed = 0;
    for (const ids of chunks(articleIds)) {
      const result = await this.ctx.db
        .deleteFrom('kb_articles')
        .where('workspace_id', '=', workspaceId)
        .where('id', 'in', ids)
        .executeTakeFirst();
      removed += Number(result.numDeletedRows);
    }
    const index = await this.ctx.db
      .deleteFrom('kb_articles')
      .where('workspace_id', '=', workspaceId)
      .where('kind', '=', 'index')
      .executeTakeFirst();
    return removed + Number(index.numDeletedRows);
  }

  /** Entity cards quote their subject's memories. */
  private async removeCards(workspaceId: string, subjectIds: readonly string[]): Promise<number> {
    let removed = 0;
    for (const ids of chunks([...new Set(subjectIds)])) {
      const result = await this.ctx.db
        .deleteFrom('entity_cards')
        .where('workspace_id', '=', workspaceId)
        .where('entity_id', 'in', ids)
        .executeTakeFirst();
      removed += Number(result.numDeletedRows);
    }
    return removed;
  }

  /** Sessions, with their working memory and sandbox checkpoints (by cascade, counted first). */
  private async removeSessions(
    workspaceId: string,
    sessionIds: readonly string[],
  ): Promise<Pick<ErasureCounts, 'sessions' | 'working_memory_entries' | 'sandbox_checkpoints'>> {
    const { db } = this.ctx;
    const counts = { sessions: 0, working_memory_entries: 0, sandbox_checkpoints: 0 };
    for (const ids of chunks(sessionIds)) {
      const entries = await db
        .selectFrom('working_memory')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('session_id', 'in', ids)
        .executeTakeFirstOrThrow();
      const checkpoints = await db
        .selectFrom('sandbox_checkpoints')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('session_id', 'in', ids)
        .executeTakeFirstOrThrow();
      const deleted = await db
        .deleteFrom('sessions')
        .where('workspace_id', '=', workspaceId)
        .where('id', 'in', ids)
        .executeTakeFirst();
      counts.sessions += Number(deleted.numDeletedRows);
      counts.working_memory_entries += Number(entries.n);
      counts.sandbox_checkpoints += Number(checkpoints.n);
    }
    return counts;
  }

  /** Threads with their messages (by cascade, counted first). */
  private async removeThreads(
    workspaceId: string,
    threadIds: readonly string[],
  ): Promise<Pick<ErasureCounts, 'threads' | 'messages'>> {
    const { db } = this.ctx;
    const counts = { threads: 0, messages: 0 };
    for (const ids of chunks(threadIds)) {
      const messages = await db
        .selectFrom('chat_messages')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('workspace_id', '=', workspaceId)
        .where('thread_id', 'in', ids)
        .executeTakeFirstOrThrow();
      const deleted = await db
        .deleteFrom('chat_threads')
        .where('workspace_id', '=', workspaceId)
        .where('id', 'in', ids)
        .executeTakeFirst();
      counts.threads += Number(deleted.numDeletedRows);
      counts.messages += Number(messages.n);
    }
    return counts;
  }

  /** A user's own skills and MCP servers (their files by cascade): of one workspace, or above all (`null`). */
  private async removeRegistryEntries(
    selector: PersonSelector,
    workspaceId: string | null,
  ): Promise<Pick<ErasureCounts, 'skills' | 'mcp_servers'>> {
    if (selector.kind !== 'user_id') return { skills: 0, mcp_servers: 0 };
    const { db } = this.ctx;
    const skills = await db
      .deleteFrom('skills')
      .where('user_id', '=', selector.id)
      .where((eb) => (workspaceId === null ? eb('workspace_id', 'is', null) : eb('workspace_id', '=', workspaceId)))
      .executeTakeFirst();
    const servers = await db
      .deleteFrom('mcp_servers')
      .where('user_id', '=', selector.id)
      .where((eb) => (workspaceId === null ? eb('workspace_id', 'is', null) : eb('workspace_id', '=', workspaceId)))
      .executeTakeFirst();
    return { skills: Number(skills.numDeletedRows), mcp_servers: Number(servers.numDeletedRows) };
  }
}

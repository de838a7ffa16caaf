import type { Selectable } from 'kysely';
import type { ChatMessagesTable, ChatThreadsTable } from '../database.js';
import { json, parseJson, parseJsonObject, toIso, toIsoOrNull } from '../rows.js';
import type { ChatMessage, ChatRole, ChatThread, MessageContent, NewChatMessage, ThreadStore } from '../types.js';
import type { SqlContext } from './context.js';

const toThread = (row: Selectable<ChatThreadsTable>): ChatThread => ({
  id: row.id,
  workspace_id: row.workspace_id,
  tenant_id: row.tenant_id,
  user_id: row.user_id,
  context_id: row.context_id,
  observer_id: row.observer_id,
  subject_id: row.subject_id,
  title: row.title,
  metadata: parseJsonObject(row.metadata),
  message_count: row.message_count,
  last_decomposed_at: toIsoOrNull(row.last_decomposed_at),
  last_decomposed_index: row.last_decomposed_index,
  expires_at: toIsoOrNull(row.expires_at),
  created_at: toIso(row.created_at),
  updated_at: toIso(row.updated_at),
});

const toMessage = (row: Selectable<ChatMessagesTable>): ChatMessage => ({
  id: row.id,
  workspace_id: row.workspace_id,
  thread_id: row.thread_id,
  message_index: row.message_index,
  role: row.role as ChatRole,
  content: parseJson<MessageContent>(row.content),
  metadata: parseJsonObject(row.metadata),
  created_at: toIso(row.created_at),
});

export class SqlThreadStore implements ThreadStore {
  constructor(private readonly ctx: SqlContext) {}

  async create(thread: ChatThread): Promise<boolean> {
    // The next index is derived, not part of the record: a new thread has no messages yet.
    const result = await this.ctx.db
      .insertInto('chat_threads')
      .values({ ...thread, metadata: json(thread.metadata), next_message_index: thread.message_count })
      .onConflict((oc) => oc.columns(['workspace_id', 'id']).doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  async get(workspaceId: string, id: string): Promise<ChatThread | null> {
    const row = await this.ctx.db
      .selectFrom('chat_threads')
      .selectAll()
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? toThread(row) : null;
  }

  async list(
    workspaceId: string,
    options: { activeAt: string; userId?: string; updatedAfter?: string; limit: number; offset: number },
  ): Promise<{ threads: ChatThread[]; total: number }> {
    let q = this.ctx.db
      .selectFrom('chat_threads')
      .where('workspace_id', '=', workspaceId)
      .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', options.activeAt)]));
    if (options.userId !== undefined) q = q.where('user_id', '=', options.userId);
    if (options.updatedAfter !== undefined) q = q.where('updated_at', '>=', options.updatedAfter);
    // One after the other: inside a transaction both run on one connection.
    const rows = await q
      .selectAll()
      .orderBy('updated_at', 'desc')
      .orderBy('id')
      .limit(options.limit)
      .offset(options.offset)
      .execute();
    const count = await q.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
    return { threads: rows.map(toThread), total: Number(count.n) };
  }

  async update(
    workspaceId: string,
    id: string,
    patch: Partial<Pick<ChatThread, 'title' | 'metadata' | 'updated_at'>>,
  ): Promise<ChatThread | null> {
    const { metadata, ...rest } = patch;
    const row = await this.ctx.db
      .updateTable('chat_threads')
      .set({ ...rest, ...(metadata === undefined ? {} : { metadata: json(metadata) }) })
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
    return row ? toThread(row) : null;
  }

  async delete(workspaceId: string, id: string): Promise<boolean> {
    const result = await this.ctx.db
      .deleteFrom('chat_threads')
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async appendMessages(
    workspaceId: string,
    threadId: string,
    messages: readonly NewChatMessage[],
  ): Promise<ChatMessage[] | null> {
    const count = messages.length;
    // One UPDATE reserves the range: on Postgres it locks the row until commit, SQLite has a single writer.
    const reserved = await this.ctx.db
      .updateTable('chat_threads')
      .set((eb) => ({
        next_message_index: eb('next_message_index', '+', count),
        message_count: eb('message_count', '+', count),
        updated_at: messages[count - 1]!.created_at,
      }))
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', threadId)
      .returning('next_message_index')
      .executeTakeFirst();
    if (!reserved) return null;
    const first = Number(reserved.next_message_index) - count;
    const stored: ChatMessage[] = messages.map((m, i) => ({
      ...m,
      workspace_id: workspaceId,
      thread_id: threadId,
      message_index: first + i,
    }));
    if (count > 0) {
      await this.ctx.db
        .insertInto('chat_messages')
        .values(stored.map((m) => ({ ...m, content: json(m.content), metadata: json(m.metadata) })))
        .execute();
    }
    return stored;
  }

  async listMessages(
    workspaceId: string,
    threadId: string,
    options: { afterIndex?: number; order: 'asc' | 'desc'; limit: number; offset: number },
  ): Promise<{ messages: ChatMessage[]; total: number }> {
    let q = this.ctx.db
      .selectFrom('chat_messages')
      .where('workspace_id', '=', workspaceId)
      .where('thread_id', '=', threadId);
    if (options.afterIndex !== undefined) q = q.where('message_index', '>', options.afterIndex);
    const rows = await q
      .selectAll()
      .orderBy('message_index', options.order)
      .limit(options.limit)
      .offset(options.offset)
      .execute();
    const count = await q.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
    return { messages: rows.map(toMessage), total: Number(count.n) };
  }

  async deleteMessage(workspaceId: string, threadId: string, messageId: string, at: string): Promise<boolean> {
    const { db } = this.ctx;
    const result = await db
      .deleteFrom('chat_messages')
      .where('workspace_id', '=', workspaceId)
      .where('thread_id', '=', threadId)
      .where('id', '=', messageId)
      .executeTakeFirst();
    if (Number(result.numDeletedRows) === 0) return false;
    await db
      .updateTable('chat_threads')
      .set((eb) => ({ message_count: eb('message_count', '-', 1), updated_at: at }))
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', threadId)
      .execute();
    return true;
  }

  async markDecomposed(
    workspaceId: string,
    threadId: string,
    expected: number,
    to: number,
    at: string,
  ): Promise<boolean> {
    const result = await this.ctx.db
      .updateTable('chat_threads')
      .set({ last_decomposed_index: to, last_decomposed_at: at })
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', threadId)
      .where('last_decomposed_index', '=', expected)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async deleteExpired(at: string, limit: number): Promise<number> {
    const { db } = this.ctx;
    const expired = await db
      .selectFrom('chat_threads')
      .select(['workspace_id', 'id'])
      .where('expires_at', 'is not', null)
      .where('expires_at', '<=', at)
      .orderBy('expires_at')
      .limit(limit)
      .execute();
    for (const { workspace_id, id } of expired) await this.delete(workspace_id, id);
    return expired.length;
  }
}

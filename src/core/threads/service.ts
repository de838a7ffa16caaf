import { AppError, conflict, invalid, notFound } from '../../errors.js';
import type { ChatMessage, ChatRole, ChatThread, JsonObject, MessageContent, Storage } from '../../storage/types.js';
import type { RecurringWork } from '../../tasks/recurring.js';
import { addMs, isoNow, type Clock } from '../clock.js';
import type { CoreEvents } from '../events.js';
import { newId } from '../ids.js';
import { DEFAULT_CONTEXT } from '../memories/records.js';
import { DEFAULT_TENANT, type WorkspaceService } from '../workspaces/service.js';
import { AUTO_DECOMPOSE, THREAD_DECOMPOSE_TASK, type DecomposeResult, type ThreadDecomposer } from './decompose.js';

export interface ThreadInput {
  thread_id?: string | undefined;
  workspace_id: string;
  user_id?: string | undefined;
  context_id?: string | undefined;
  observer_id?: string | undefined;
  subject_id?: string | undefined;
  title?: string | undefined;
  metadata?: JsonObject | undefined;
  /** Null or absent: permanent. */
  expires_at?: string | null | undefined;
}

export interface MessageInput {
  role: ChatRole;
  content: MessageContent;
  metadata?: JsonObject | undefined;
}

export interface Paging {
  limit: number;
  offset: number;
}

export const THREAD_CLEANUP_TASK = 'threads.cleanup';
const CLEANUP_INTERVAL_MS = 300_000;
const CLEANUP_BATCH = 500;

interface ThreadDeps {
  storage: Storage;
  workspaces: WorkspaceService;
  decomposer: ThreadDecomposer;
  clock: Clock;
  events: CoreEvents;
}

/** Chat threads: ordered messages per thread, decomposed into memories on request or in the background. */
export class ThreadService {
  constructor(private readonly deps: ThreadDeps) {}

  async create(input: ThreadInput): Promise<ChatThread> {
    const { storage, workspaces, clock } = this.deps;
    const workspace = await workspaces.get(input.workspace_id);
    const now = isoNow(clock);
    const expiresAt = input.expires_at == null ? null : new Date(input.expires_at).toISOString();
    if (expiresAt !== null && expiresAt <= now)
      throw invalid('/expires_at', 'must be in the future (or null for a permanent thread)');
    const id = input.thread_id ?? newId('thread');
    const contextId = input.context_id ?? DEFAULT_CONTEXT;
    const thread: ChatThread = {
      id,
      workspace_id: workspace.id,
      tenant_id: DEFAULT_TENANT,
      user_id: input.user_id ?? null,
      context_id: contextId,
      observer_id: input.observer_id ?? null,
      subject_id: input.subject_id ?? null,
      title: input.title ?? null,
      metadata: input.metadata ?? {},
      message_count: 0,
      last_decomposed_at: null,
      last_decomposed_index: -1,
      expires_at: expiresAt,
      created_at: now,
      updated_at: now,
    };
    await storage.transaction(async (tx) => {
      await tx.contexts.create({
        id: contextId,
        workspace_id: workspace.id,
        name: contextId,
        description: null,
        settings: {},
        created_at: now,
        updated_at: now,
      });
      // The insert decides (its context with it), so that of two creates of one id at once the second is told it exists.
      if (!(await tx.threads.create(thread)))
        throw conflict(`thread '${id}' already exists in workspace '${workspace.id}'`);
    });
    return thread;
  }

  /** A live thread; 404 when unknown, 410 once it has expired (until the cleanup removes it). */
  async get(workspaceId: string, id: string): Promise<ChatThread> {
    const thread = await this.deps.storage.threads.get(workspaceId, id);
    if (!thread) throw notFound('thread', id);
    if (thread.expires_at !== null && thread.expires_at <= isoNow(this.deps.clock))
      throw new AppError('gone', `thread '${id}' expired at ${thread.expires_at}`);
    return thread;
  }

  async list(
    workspaceId: string,
    options: Paging & { userId?: string | undefined },
  ): Promise<{ threads: ChatThread[]; total: number }> {
    await this.deps.workspaces.get(workspaceId);
    return this.deps.storage.threads.list(workspaceId, {
      activeAt: isoNow(this.deps.clock),
      limit: options.limit,
      offset: options.offset,
      ...(options.userId === undefined ? {} : { userId: options.userId }),
    });
  }

  async update(
    workspaceId: string,
    id: string,
    patch: { title?: string | null | undefined; metadata?: JsonObject | undefined },
  ): Promise<ChatThread> {
    await this.get(workspaceId, id);
    const change = {
      updated_at: isoNow(this.deps.clock),
      ...(patch.title === undefined ? {} : { title: patch.title }),
      ...(patch.metadata === undefined ? {} : { metadata: patch.metadata }),
    };
    const updated = await this.deps.storage.threads.update(workspaceId, id, change);
    if (!updated) throw notFound('thread', id);
    return updated;
  }

  /** Removes the thread and its messages (an expired one too); memories decomposed from it stay. */
  async delete(workspaceId: string, id: string): Promise<void> {
    if (!(await this.deps.storage.threads.delete(workspaceId, id))) throw notFound('thread', id);
  }

  async messages(
    workspaceId: string,
    id: string,
    options: Paging & { order: 'asc' | 'desc'; afterIndex?: number | undefined },
  ): Promise<{ thread: ChatThread; messages: ChatMessage[]; total: number }> {
    const thread = await this.get(workspaceId, id);
    const page = await this.deps.storage.threads.listMessages(workspaceId, id, {
      order: options.order,
      limit: options.limit,
      offset: options.offset,
      ...(options.afterIndex === undefined ? {} : { afterIndex: options.afterIndex }),
    });
    return { thread, messages: page.messages, total: page.total };
  }

  /**
   * Appends in order with the thread's next indexes; concurrent appends never share or reorder an index. Once
   * enough messages wait for decomposition, a background decomposition is queued (see AUTO_DECOMPOSE).
   */
  async append(
    workspaceId: string,
    id: string,
    inputs: readonly MessageInput[],
  ): Promise<{ messages: ChatMessage[]; messageCount: number }> {
    const { storage, clock, events } = this.deps;
    const thread = await this.get(workspaceId, id);
    const now = isoNow(clock);
    const messages = inputs.map((m) => ({
      id: newId('msg'),
      role: m.role,
      content: m.content,
      metadata: m.metadata ?? {},
      created_at: now,
    }));
    let queued = false;
    const stored = await storage.transaction(async (tx) => {
      const appended = await tx.threads.appendMessages(workspaceId, id, messages);
      if (!appended) throw notFound('thread', id);
      const pending = appended[appended.length - 1]!.message_index - thread.last_decomposed_index;
      if (pending >= AUTO_DECOMPOSE.minPendingMessages) {
        const earliest =
          thread.last_decomposed_at === null ? now : addMs(thread.last_decomposed_at, AUTO_DECOMPOSE.minIntervalMs);
        await tx.tasks.enqueue([
          {
            kind: THREAD_DECOMPOSE_TASK,
            workspaceId,
            payload: { thread_id: id },
            runAt: earliest > now ? earliest : now,
            dedupeKey: `${THREAD_DECOMPOSE_TASK}:${workspaceId}:${id}`,
          },
        ]);
        queued = true;
      }
      return appended;
    });
    if (queued) events.tasksQueued();
    const after = await storage.threads.get(workspaceId, id);
    return { messages: stored, messageCount: after?.message_count ?? stored.length };
  }

  async deleteMessage(workspaceId: string, id: string, messageId: string): Promise<void> {
    await this.get(workspaceId, id);
    const now = isoNow(this.deps.clock);
    if (!(await this.deps.storage.transaction((tx) => tx.threads.deleteMessage(workspaceId, id, messageId, now))))
      throw notFound('message', messageId);
  }

  async decompose(workspaceId: string, id: string): Promise<DecomposeResult> {
    return this.deps.decomposer.decompose(await this.get(workspaceId, id));
  }

  /** Recurring background removal of expired threads, with their messages. */
  readonly cleanup: RecurringWork = {
    kind: THREAD_CLEANUP_TASK,
    intervalMs: CLEANUP_INTERVAL_MS,
    run: async (now) => {
      let removed: number;
      do removed = await this.deps.storage.threads.deleteExpired(now, CLEANUP_BATCH);
      while (removed === CLEANUP_BATCH);
    },
  };
}

export type { ChatMessage, ChatThread } from '../../storage/types.js';

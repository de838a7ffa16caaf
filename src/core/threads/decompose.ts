import type { LlmProvider } from '../../providers/llm/types.js';
import type { ChatMessage, ChatThread, Task } from '../../storage/types.js';
import { isoNow } from '../clock.js';
import { OneAtATime } from '../one-at-a-time.js';
import { filingOf } from '../extraction/categories.js';
import { extractWithLlm } from '../extraction/llm.js';
import { assessStatement } from '../extraction/salience.js';
import type { MemoryDraft } from '../memories/records.js';
import { splitSentences } from '../text/index.js';
import type { DerivationDeps } from '../extraction/deps.js';

export const THREAD_DECOMPOSE_TASK = 'thread.decompose';

/** Background decomposition (reference defaults): after 10 unprocessed messages, at most every 300 s per thread. */
export const AUTO_DECOMPOSE = { minPendingMessages: 10, minIntervalMs: 300_000 };

/** Messages sent to a language model at once, and how many of them repeat the previous chunk as context. */
const CHUNK_SIZE = 20;
const CHUNK_OVERLAP = 5;
/** Messages one run processes; a longer backlog is finished by the next run. */
const MAX_MESSAGES_PER_RUN = 1_000;
/** Rule-based extraction keeps sentences at least this salient (the commit default). */
const MIN_IMPORTANCE = 0.5;
/** Users state facts about themselves; assistants mostly rephrase, suggest and ask. */
const ROLE_ADJUSTMENT: Partial<Record<ChatMessage['role'], number>> = { user: 0.05, assistant: -0.1 };

export interface DecomposeResult {
  thread_id: string;
  workspace_id: string;
  messages_processed: number;
  memories_created: number;
  /** First and last message index processed; null when nothing was new. */
  from_index: number | null;
  to_index: number | null;
}

const SYSTEM =
  'You extract long-term memories from a chat between a user and an AI assistant. Lines marked NEW are to be ' +
  'processed; lines marked CONTEXT were processed before and only help you understand. Keep facts about the user, ' +
  'their preferences, decisions, plans, problems and solutions; skip greetings, small talk and questions.';

/** The text of a message: its string, or the text of its content blocks. */
export function messageText(message: Pick<ChatMessage, 'content'>): string {
  if (typeof message.content === 'string') return message.content;
  return message.content.flatMap((block) => (typeof block.text === 'string' ? [block.text] : [])).join('\n');
}

type Extraction = Pick<MemoryDraft, 'content' | 'type' | 'subtype' | 'importance'> & {
  category: string;
  method: 'rules' | 'llm';
  range: [number, number];
};

/**
 * Turns the messages of a thread that no run has processed yet into memories, attributed to the thread's
 * observer and subject, and advances `last_decomposed_index`. Running it again finds nothing new; a retried run
 * (after a crash before the index advanced) finds its memories by content hash and creates nothing twice.
 */
export class ThreadDecomposer {
  /** Runs of one thread, one at a time: two at once read the same messages and both reported them processed. */
  private readonly runs = new OneAtATime();

  constructor(private readonly deps: DerivationDeps) {}

  decompose(thread: ChatThread): Promise<DecomposeResult> {
    return this.runs.run(`${thread.workspace_id}\u0000${thread.id}`, async () => {
      // Read again once the run before has finished: it may have advanced the index since `thread` was read.
      const current = await this.deps.storage.threads.get(thread.workspace_id, thread.id);
      return this.decomposeNew(current ?? thread);
    });
  }

  private async decomposeNew(thread: ChatThread): Promise<DecomposeResult> {
    const { storage, memories, workspaces, clock } = this.deps;
    const page = await storage.threads.listMessages(thread.workspace_id, thread.id, {
      afterIndex: thread.last_decomposed_index,
      order: 'asc',
      limit: MAX_MESSAGES_PER_RUN,
      offset: 0,
    });
    const pending = page.messages;
    const result: DecomposeResult = {
      thread_id: thread.id,
      workspace_id: thread.workspace_id,
      messages_processed: pending.length,
      memories_created: 0,
      from_index: null,
      to_index: null,
    };
    if (pending.length === 0) return result;

    const extractions = this.deps.llm ? await this.byLlm(this.deps.llm, pending) : byRules(pending);
    const scope = await workspaces.writeScope(thread.workspace_id);
    const outcomes =
      extractions.length > 0
        ? await memories.createMany(
            scope,
            extractions.map((e) => draftFor(thread, e)),
          )
        : [];
    const toIndex = pending[pending.length - 1]!.message_index;
    const advanced = await storage.threads.markDecomposed(
      thread.workspace_id,
      thread.id,
      thread.last_decomposed_index,
      toIndex,
      isoNow(clock),
    );
    const created = outcomes.filter((o) => !('error' in o) && o.action === 'created').length;
    // A run on another node advanced the index first: it processed these messages, and reports them.
    if (!advanced) return { ...result, messages_processed: 0, memories_created: created };
    return { ...result, memories_created: created, from_index: pending[0]!.message_index, to_index: toIndex };
  }

  /** The background task queued by appends. */
  readonly handle = async (task: Task): Promise<void> => {
    const thread = await this.deps.storage.threads.get(task.workspaceId!, String(task.payload.thread_id));
    if (!thread || (thread.expires_at !== null && thread.expires_at <= isoNow(this.deps.clock))) return;
    await this.decompose(thread);
  };

  private async byLlm(llm: LlmProvider, pending: readonly ChatMessage[]): Promise<Extraction[]> {
    const extractions: Extraction[] = [];
    for (let start = 0; start < pending.length; start += CHUNK_SIZE - CHUNK_OVERLAP) {
      const context = pending.slice(Math.max(0, start - CHUNK_OVERLAP), start);
      const fresh = pending.slice(start, start + CHUNK_SIZE - CHUNK_OVERLAP);
      const line = (m: ChatMessage, mark: string) => `[${mark} ${m.message_index}] ${m.role}: ${messageText(m)}`;
      const input = [...context.map((m) => line(m, 'CONTEXT')), ...fresh.map((m) => line(m, 'NEW'))].join('\n');
      const range: [number, number] = [fresh[0]!.message_index, fresh[fresh.length - 1]!.message_index];
      try {
        const freshIndexes = new Set(fresh.map((m) => m.message_index));
        for (const item of await extractWithLlm(llm, SYSTEM, input)) {
          const ref = Number(item.ref);
          extractions.push({
            content: item.content,
            importance: item.importance,
            category: item.category,
            method: 'llm',
            range: freshIndexes.has(ref) ? [ref, ref] : range,
            ...filingOf(item.category),
          });
        }
      } catch (error) {
        this.deps.log.warn(
          { err: error instanceof Error ? error.message : String(error) },
          'LLM thread decomposition failed; using rules for this chunk',
        );
        extractions.push(...byRules(fresh));
      }
    }
    return extractions;
  }
}

/** Rule-based extraction: the salient sentences of user and assistant messages (system and tool output are skipped). */
function byRules(messages: readonly ChatMessage[]): Extraction[] {
  return messages.flatMap((message) => {
    const adjustment = ROLE_ADJUSTMENT[message.role];
    if (adjustment === undefined) return [];
    return splitSentences(messageText(message)).flatMap((sentence): Extraction[] => {
      const assessed = assessStatement(sentence);
      const importance = Math.round(Math.min(0.95, assessed.importance + adjustment) * 100) / 100;
      if (importance < MIN_IMPORTANCE) return [];
      return [
        {
          content: sentence,
          type: assessed.type,
          subtype: assessed.subtype,
          importance,
          category: assessed.category,
          method: 'rules',
          range: [message.message_index, message.message_index],
        },
      ];
    });
  });
}

function draftFor(thread: ChatThread, extraction: Extraction): MemoryDraft {
  const { category, method, range, ...fields } = extraction;
  return {
    ...fields,
    context_id: thread.context_id,
    user_id: thread.user_id ?? undefined,
    observer_id: thread.observer_id ?? undefined,
    subject_id: thread.subject_id ?? undefined,
    metadata: {
      source: 'chat_history',
      thread_id: thread.id,
      message_range: range,
      category,
      extraction_method: method,
    },
  };
}

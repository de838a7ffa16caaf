import type { JsonObject, WrittenMemory } from '../../storage/types.js';

/**
 * Conversation adjacency: which memories are the turns just before and after a memory in its conversation. A reply
 * ("5 years already!") carries its meaning in the turn it answers, so recall lets turns lend each other evidence.
 * A client need not open sessions for it; what it does anyway is enough (NOTES.md, "Conversation adjacency"):
 *   - metadata naming the conversation (`CONVERSATION_KEYS`): the turns of one named conversation in one context,
 *     however far apart in time, ordered by their turn number (`TURN_KEYS`) when both have one, else by write order;
 *   - a session: the turns written in it (`isTurn`, below), in write order, within `withinMs` of each other's event
 *     time;
 *   - neither: turns (`isTurn`: a speaker label opens each, or metadata names its speaker) written one after the
 *     other in one context for one user (`user_id`, or none), in write order, within `withinMs` of each other's
 *     event time, whether a batch (written in its order) or one call each, as a chat client writes messages as they
 *     come (a transcript imported in one call spans several sittings, told apart by event time). Statements are
 *     not turns: a batch of them ("On 8 September 2019, Anouk Holm tested a necklace…", then an unrelated one) lent
 *     each its score to the next, and at 100,000 such memories a question in other words than its memory's found
 *     it in the top ten 0.236 of the time, against 0.796 without adjacency (BENCHMARKS.md, "Recall at scale").
 *     Notes an agent saves one by one are statements too, unless each opens with a label ("Note: …" reads as a
 *     speaker's; NOTES.md).
 * Memories of different kinds are never neighbours (a named conversation and an unnamed turn next to it).
 */

/** Metadata keys that name a memory's conversation, first present wins. */
export const CONVERSATION_KEYS = ['conversation_id', 'thread_id', 'session_id'] as const;
/** Metadata keys that number a memory's turn within its named conversation, first present wins. */
export const TURN_KEYS = ['turn', 'turn_index', 'message_index'] as const;

/** A memory next to another one in their conversation. */
export interface ConversationNeighbour {
  /** The memory it neighbours. */
  anchorId: string;
  /** Position relative to the anchor: -1 the turn before, 1 the turn after, 2 the one after that, … */
  offset: number;
  id: string;
  memory: WrittenMemory;
}

/**
 * How many memories around an anchor are read per turn of span (4 each side for 2 turns): others' writes and facts
 * may sit in between. Rows read are most of adjacency's cost: 8 each side cost 0.7 ms a recall at 20k memories, 4
 * about 0.2 (bench:recall-profile).
 */
export const WRITTEN_AROUND_PER_SPAN = 2;

/** Metadata keys that name who said a turn, first present wins. */
export const SPEAKER_KEYS = ['speaker', 'role', 'author'] as const;

/** A speaker's label opening a turn ("Caroline: …", "user: …"): up to four words before the colon. */
const SPEAKER_LABEL = /^\s*[\p{L}\p{N}][\p{L}\p{N}'’._-]*(?: [\p{L}\p{N}'’._-]+){0,3}:\s/u;

/** Whether a memory written without a session or a conversation's name reads as a turn of a conversation. */
export const isTurn = (m: Pick<WrittenMemory, 'content' | 'metadata'>): boolean =>
  firstOf(m.metadata, SPEAKER_KEYS) !== null || opensWithSpeaker(m.content);

/** Whether a text opens with a speaker's label: a turn by its text alone, whatever its metadata. */
export const opensWithSpeaker = (content: string): boolean => SPEAKER_LABEL.test(content);

/**
 * Whether a memory has a conversation at all: a named one, or it is a turn. A statement has none, so it has no
 * neighbours whatever is written around it.
 */
export const hasConversation = (m: Pick<WrittenMemory, 'content' | 'metadata'>): boolean =>
  firstOf(m.metadata, CONVERSATION_KEYS) !== null || isTurn(m);

/** A question mark closing a text, quotes, brackets and spaces after it aside. */
const CLOSING_QUESTION = /\?["'”’)\]\s]*$/u;

/**
 * Whether a turn asks something: it ends with a question ("Which one has been your favourite guide?"). Recall's
 * conversation spread lends such a turn's score less to the turns before it than to the reply after it.
 */
export const asksQuestion = (content: string): boolean => CLOSING_QUESTION.test(content);

type Thread =
  | { kind: 'named'; context: string; name: string; turn: number | null }
  | { kind: 'session'; context: string; session: string }
  | { kind: 'turns'; context: string; user: string | null }
  | { kind: 'alone' };

const firstOf = (metadata: JsonObject, keys: readonly string[]): string | number | null => {
  for (const key of keys) {
    const value = metadata[key];
    if (typeof value === 'string' && value.trim() !== '') return value;
    if (typeof value === 'number' && Number.isFinite(value)) return value;
  }
  return null;
};

function threadOf(m: WrittenMemory): Thread {
  const name = firstOf(m.metadata, CONVERSATION_KEYS);
  if (name !== null) {
    const turn = firstOf(m.metadata, TURN_KEYS);
    return {
      kind: 'named',
      context: m.context_id,
      name: String(name),
      turn: typeof turn === 'number' ? turn : turn !== null && /^-?\d+$/.test(turn) ? Number(turn) : null,
    };
  }
  // Statements are not a conversation in a session either: an agent's session is where it works (MCP's session_start
  // gives its notes their context), and its notes lent each other their scores, as a batch of statements did.
  if (!hasConversation(m)) return { kind: 'alone' };
  if (m.session_id !== null) return { kind: 'session', context: m.context_id, session: m.session_id };
  return { kind: 'turns', context: m.context_id, user: m.user_id };
}

/** Whether `b` belongs to `a`'s conversation (order and distance aside); times are event times in ms. */
function sameConversation(ta: Thread, timeA: number, tb: Thread, timeB: number, withinMs: number): boolean {
  if (ta.kind === 'alone' || tb.kind === 'alone' || ta.kind !== tb.kind || ta.context !== tb.context) return false;
  if (ta.kind === 'named') return ta.name === (tb as typeof ta).name;
  if (Math.abs(timeA - timeB) > withinMs) return false;
  if (ta.kind === 'turns') return ta.user === (tb as typeof ta).user;
  return ta.session === (tb as typeof ta).session;
}

/** The first index of `sorted` (by seq) whose seq is at least `seq`. */
function firstAtLeast(sorted: ReadonlyArray<{ seq: number }>, seq: number): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (sorted[mid]!.seq < seq) low = mid + 1;
    else high = mid;
  }
  return low;
}

/**
 * The turns at most `span` before and after each anchor in its conversation, nearest first, from the memories
 * written around the anchors (`written`, the anchors among them, read `span x WRITTEN_AROUND_PER_SPAN` places each
 * side; see `MemoryStore.writtenAround`).
 */
export function conversationNeighbours(
  anchorIds: readonly string[],
  written: readonly WrittenMemory[],
  options: { span: number; withinMs: number },
): ConversationNeighbour[] {
  const reach = options.span * WRITTEN_AROUND_PER_SPAN;
  const sorted = [...written].sort((a, b) => a.seq - b.seq);
  const byId = new Map(sorted.map((m) => [m.id, m]));
  const threads = new Map<string, Thread>();
  const times = new Map<string, number>();
  const threadOfId = (m: WrittenMemory): Thread => {
    let thread = threads.get(m.id);
    if (!thread) {
      thread = threadOf(m);
      threads.set(m.id, thread);
      times.set(m.id, Date.parse(m.occurred_at ?? m.created_at));
    }
    return thread;
  };
  const found: ConversationNeighbour[] = [];
  for (const anchorId of anchorIds) {
    const anchor = byId.get(anchorId);
    if (!anchor) continue;
    const thread = threadOfId(anchor);
    const time = times.get(anchor.id)!;
    const same: WrittenMemory[] = [];
    for (
      let i = firstAtLeast(sorted, anchor.seq - reach);
      i < sorted.length && sorted[i]!.seq <= anchor.seq + reach;
      i++
    ) {
      const m = sorted[i]!;
      if (m.id !== anchor.id && sameConversation(thread, time, threadOfId(m), times.get(m.id)!, options.withinMs))
        same.push(m);
    }
    if (thread.kind === 'named' && thread.turn !== null) {
      // Numbered turns: their numbers say the order, whatever order they were written in.
      const byOffset = new Map<number, WrittenMemory>();
      for (const m of same) {
        const turn = (threads.get(m.id) as typeof thread).turn;
        const offset = turn === null ? 0 : turn - thread.turn;
        if (offset !== 0 && Math.abs(offset) <= options.span && !byOffset.has(offset)) byOffset.set(offset, m);
      }
      for (const [offset, m] of [...byOffset].sort((a, b) => Math.abs(a[0]) - Math.abs(b[0]) || a[0] - b[0]))
        found.push({ anchorId: anchor.id, offset, id: m.id, memory: m });
      continue;
    }
    const before = same
      .filter((m) => m.seq < anchor.seq)
      .reverse()
      .slice(0, options.span);
    const after = same.filter((m) => m.seq > anchor.seq).slice(0, options.span);
    before.forEach((m, i) => {
      found.push({ anchorId: anchor.id, offset: -(i + 1), id: m.id, memory: m });
    });
    after.forEach((m, i) => {
      found.push({ anchorId: anchor.id, offset: i + 1, id: m.id, memory: m });
    });
  }
  return found;
}

/**
 * The ids of `candidates` written within `reach` places of one of `sources` other than itself: only those can have a
 * source among their conversation neighbours.
 */
export function writtenNear(
  candidates: ReadonlyArray<{ id: string; seq: number }>,
  sources: ReadonlyArray<{ id: string; seq: number }>,
  reach: number,
): string[] {
  const sorted = [...sources].sort((a, b) => a.seq - b.seq);
  return candidates
    .filter((c) => {
      for (let i = firstAtLeast(sorted, c.seq - reach); i < sorted.length && sorted[i]!.seq <= c.seq + reach; i++)
        if (sorted[i]!.id !== c.id) return true;
      return false;
    })
    .map((c) => c.id);
}

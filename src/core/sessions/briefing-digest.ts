import type { ChatThread, KindCount, Memory } from '../../storage/types.js';
import { textAtDetailLevel } from '../memories/tiers.js';

/** The workspace in figures, the shape agent clients read from a briefing. */
export interface WorkspaceSummary {
  /** Active memories in the workspace. */
  total_memories: number;
  /** Memories written in the lookback window (derived facts not counted). */
  recent_memories: number;
  /** The most frequent tags among the recent memories, most frequent first. */
  active_topics: string[];
  /** Distinct kinds of active memory: each subtype, and each type of the memories without one. */
  total_categories: number;
  total_associations: number;
  /** Active memories by type. */
  memory_types: Record<string, number>;
}

/** The recent memories of one session (or of none), newest group first. */
export interface ActivityEntry {
  /** When the group's newest memory was written. */
  timestamp: string;
  session_id: string | null;
  summary: string;
  memories_created: number;
  /** The group's decisions (subtype `decision`), at abstract detail. */
  key_decisions: string[];
}

export interface OpenThread {
  id: string;
  thread_id: string;
  title: string | null;
  message_count: number;
  /** Messages not decomposed into memories yet. */
  pending_messages: number;
  updated_at: string;
}

const TOPICS = 10;
const DECISIONS = 3;

export function workspaceSummary(
  kinds: readonly KindCount[],
  recentCount: number,
  recent: readonly Memory[],
  totalAssociations: number,
): WorkspaceSummary {
  const memoryTypes: Record<string, number> = {};
  for (const kind of kinds) memoryTypes[kind.type] = (memoryTypes[kind.type] ?? 0) + kind.count;
  const categories = new Set(kinds.map((kind) => kind.subtype ?? kind.type));
  const tagCounts = new Map<string, number>();
  for (const memory of recent) for (const tag of memory.tags) tagCounts.set(tag, (tagCounts.get(tag) ?? 0) + 1);
  const topics = [...tagCounts]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, TOPICS)
    .map(([tag]) => tag);
  return {
    total_memories: kinds.reduce((sum, kind) => sum + kind.count, 0),
    recent_memories: recentCount,
    active_topics: topics,
    total_categories: categories.size,
    total_associations: totalAssociations,
    memory_types: memoryTypes,
  };
}

export function recentActivity(recent: readonly Memory[]): ActivityEntry[] {
  const groups = new Map<string | null, Memory[]>();
  for (const memory of recent) groups.set(memory.session_id, [...(groups.get(memory.session_id) ?? []), memory]);
  return [...groups]
    .map(([sessionId, memories]) => {
      const timestamp = memories.reduce(
        (latest, m) => (m.created_at > latest ? m.created_at : latest),
        memories[0]!.created_at,
      );
      const n = memories.length;
      const where = sessionId ? `in session ${sessionId}` : 'outside a session';
      return {
        timestamp,
        session_id: sessionId,
        summary: `${n} ${n === 1 ? 'memory' : 'memories'} ${where}`,
        memories_created: n,
        key_decisions: memories
          .filter((m) => m.subtype === 'decision')
          .slice(0, DECISIONS)
          .map((m) => textAtDetailLevel(m, 'abstract')),
      };
    })
    .sort((a, b) => (a.timestamp < b.timestamp ? 1 : a.timestamp > b.timestamp ? -1 : 0));
}

export const openThread = (t: ChatThread): OpenThread => ({
  id: t.id,
  thread_id: t.id,
  title: t.title,
  message_count: t.message_count,
  pending_messages: t.message_count === 0 ? 0 : Math.max(0, t.message_count - (t.last_decomposed_index + 1)),
  updated_at: t.updated_at,
});

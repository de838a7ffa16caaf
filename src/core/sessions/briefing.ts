import type { Contradiction, Memory, Storage } from '../../storage/types.js';
import { addMs, isoNow, type Clock } from '../clock.js';
import { textAtDetailLevel, type DetailLevel } from '../memories/tiers.js';
import type { WorkspaceService } from '../workspaces/service.js';
import {
  openThread,
  recentActivity,
  workspaceSummary,
  type ActivityEntry,
  type OpenThread,
  type WorkspaceSummary,
} from './briefing-digest.js';

export interface BriefingOptions {
  lookbackMinutes: number;
  detailLevel: DetailLevel;
  limit: number;
  includeMemories: boolean;
  includeContradictions: boolean;
}

/** A session's opening briefing looks back further than GET /sessions/briefing (60 minutes): work resumes after a gap. */
export const SESSION_BRIEFING_LOOKBACK_HOURS = 24;

export const DEFAULT_BRIEFING_OPTIONS: BriefingOptions = {
  lookbackMinutes: 60,
  detailLevel: 'abstract',
  limit: 10,
  includeMemories: true,
  includeContradictions: true,
};

/** A recent memory as a briefing shows it: its text at the requested detail level. */
export interface BriefingMemory {
  id: string;
  content: string;
  type: Memory['type'];
  subtype: string | null;
  importance: number;
  tags: string[];
  session_id: string | null;
  created_at: string;
}

/** An open contradiction with the two statements, so a reader need not look them up. */
export interface BriefingContradiction extends Contradiction {
  memory_a_content: string | null;
  memory_b_content: string | null;
}

export interface Briefing {
  workspace_id: string;
  summary: string;
  recent_memories: BriefingMemory[];
  contradictions: BriefingContradiction[];
  lookback_minutes: number;
  generated_at: string;
  /** The same briefing in the shape agent clients read (see NOTES.md). */
  workspace_summary: WorkspaceSummary;
  recent_activity: ActivityEntry[];
  open_threads: OpenThread[];
  /** The same list as `contradictions`. */
  contradictions_detected: BriefingContradiction[];
  /** The same list as `recent_memories`. */
  memories: BriefingMemory[];
}

const HIGHLIGHTS = 2;
const THREADS_NAMED = 3;

const plural = (n: number, word: string, many = `${word}s`): string => `${n} ${n === 1 ? word : many}`;
const windowText = (minutes: number): string =>
  minutes >= 120 && minutes % 60 === 0 ? plural(minutes / 60, 'hour') : plural(minutes, 'minute');

/**
 * What happened in a workspace lately, for an agent starting work: new memories, sessions, open chat threads and
 * unresolved contradictions, with a plain-text summary built from them by rules (deterministic, no model call).
 */
export class BriefingService {
  constructor(
    private readonly storage: Storage,
    private readonly workspaces: WorkspaceService,
    private readonly clock: Clock,
  ) {}

  async build(workspaceId: string, options: BriefingOptions): Promise<Briefing> {
    const { storage } = this;
    await this.workspaces.get(workspaceId);
    const now = isoNow(this.clock);
    const since = addMs(now, -options.lookbackMinutes * 60_000);
    const recentFilter = { createdAfter: since, derived: false };
    const recent = await storage.memories.list(workspaceId, recentFilter, { limit: options.limit });
    const memoryCount = await storage.memories.count(workspaceId, recentFilter);
    const sessions = await storage.sessions.list({ workspaceId, activeAt: now });
    const threads = await storage.threads.list(workspaceId, {
      activeAt: now,
      updatedAfter: since,
      limit: options.limit,
      offset: 0,
    });
    const contradictionCount = await storage.contradictions.countUnresolved(workspaceId);
    const kinds = await storage.memories.countByKind(workspaceId, { statuses: ['active'] });
    const totalAssociations = await storage.associations.count(workspaceId);
    const contradictions = options.includeContradictions ? await this.openContradictions(workspaceId, options) : [];

    const window = windowText(options.lookbackMinutes);
    const parts: string[] = [];
    if (memoryCount === 0) parts.push(`No new memories in the last ${window}.`);
    else {
      const kinds = new Map<string, number>();
      for (const m of recent.items) kinds.set(m.subtype ?? m.type, (kinds.get(m.subtype ?? m.type) ?? 0) + 1);
      const byKind = [...kinds]
        .sort((a, b) => b[1] - a[1])
        .map(([kind, n]) => `${kind} ${n}`)
        .join(', ');
      const highlights = [...recent.items]
        .sort((a, b) => b.importance - a.importance)
        .slice(0, HIGHLIGHTS)
        .map((m) => `“${textAtDetailLevel(m, 'abstract')}”`);
      const sampled = memoryCount > recent.items.length ? ` among the latest ${recent.items.length}` : '';
      parts.push(
        `${plural(memoryCount, 'new memory', 'new memories')} in the last ${window} (${byKind}${sampled}); most important: ${highlights.join('; ')}.`,
      );
    }
    const startedRecently = sessions.filter((s) => s.created_at >= since).length;
    parts.push(
      sessions.length === 0
        ? 'No active sessions.'
        : `${plural(sessions.length, 'active session')}, ${startedRecently} started in the last ${window}.`,
    );
    if (threads.total === 0) parts.push(`No chat threads active in the last ${window}.`);
    else {
      const named = threads.threads.slice(0, THREADS_NAMED).map((t) => {
        const pending = t.message_count === 0 ? 0 : Math.max(0, t.message_count - (t.last_decomposed_index + 1));
        return `“${t.title ?? t.id}” (${plural(t.message_count, 'message')}${pending > 0 ? `, ${pending} not yet decomposed` : ''})`;
      });
      parts.push(
        `${plural(threads.total, 'open chat thread')} active in the last ${window}: ${named.join(', ')}${threads.total > named.length ? ', …' : ''}.`,
      );
    }
    parts.push(
      contradictionCount === 0
        ? 'No unresolved contradictions.'
        : `${plural(contradictionCount, 'unresolved contradiction')} to review.`,
    );

    const memories = options.includeMemories ? recent.items.map((m) => briefingMemory(m, options.detailLevel)) : [];
    return {
      workspace_id: workspaceId,
      summary: parts.join(' '),
      recent_memories: memories,
      contradictions,
      lookback_minutes: options.lookbackMinutes,
      generated_at: now,
      workspace_summary: workspaceSummary(kinds, memoryCount, recent.items, totalAssociations),
      recent_activity: recentActivity(recent.items),
      open_threads: threads.threads.map(openThread),
      contradictions_detected: contradictions,
      memories,
    };
  }

  private async openContradictions(workspaceId: string, options: BriefingOptions): Promise<BriefingContradiction[]> {
    const open = await this.storage.contradictions.listUnresolved(workspaceId, options.limit);
    const ids = open.flatMap((c) => [c.memory_a_id, c.memory_b_id]);
    const byId = new Map((await this.storage.memories.getMany(workspaceId, ids)).map((m) => [m.id, m]));
    const text = (id: string) => {
      const memory = byId.get(id);
      return memory ? textAtDetailLevel(memory, options.detailLevel) : null;
    };
    return open.map((c) => ({ ...c, memory_a_content: text(c.memory_a_id), memory_b_content: text(c.memory_b_id) }));
  }
}

function briefingMemory(m: Memory, level: DetailLevel): BriefingMemory {
  return {
    id: m.id,
    content: textAtDetailLevel(m, level),
    type: m.type,
    subtype: m.subtype,
    importance: m.importance,
    tags: m.tags,
    session_id: m.session_id,
    created_at: m.created_at,
  };
}

import { performance } from 'node:perf_hooks';
import type { Session, WorkingMemoryEntry } from '../../storage/types.js';
import { isoNow } from '../clock.js';
import { EXTRACTION_CATEGORIES, filingOf, type ExtractionCategory } from '../extraction/categories.js';
import { extractWithLlm } from '../extraction/llm.js';
import { assessStatement, type Assessment } from '../extraction/salience.js';
import type { MemoryDraft } from '../memories/records.js';
import { contentHash, words } from '../text/index.js';
import type { DerivationDeps } from '../extraction/deps.js';

export interface CommitOptions {
  minImportance: number;
  deduplicate: boolean;
  /** Null: every category. */
  categories: readonly ExtractionCategory[] | null;
  maxMemories: number;
}

export const DEFAULT_COMMIT_OPTIONS: CommitOptions = {
  minImportance: 0.5,
  deduplicate: true,
  categories: null,
  maxMemories: 50,
};

export interface CommitResult {
  session_id: string;
  /** Entries that passed the thresholds (and the cap), deduplicated ones included. */
  memories_extracted: number;
  /** Extracted entries that long-term memory already held (or this session already committed). */
  memories_deduplicated: number;
  memories_created: number;
  /** Category to number of memories created. */
  breakdown: Record<string, number>;
  extraction_time_ms: number;
}

interface Candidate extends Assessment {
  entry: WorkingMemoryEntry;
  content: string;
  method: 'rules' | 'llm';
}

const SYSTEM =
  'You turn the working memory of an AI agent session into long-term memories. Each input line is "key: value". Propose a memory for every entry, scored honestly; skip nothing but empty entries.';

const isEmpty = (value: unknown): boolean =>
  value === null ||
  value === '' ||
  (Array.isArray(value) && value.length === 0) ||
  (typeof value === 'object' && value !== null && Object.keys(value).length === 0);

const label = (key: string): string => key.replace(/[_-]+/g, ' ').trim();

const asText = (value: unknown): string => (typeof value === 'string' ? value.trim() : JSON.stringify(value));

/** An entry as a statement: a sentence stays as it is; a bare value is said with its key ("location: Lisbon"). */
export function entryText(key: string, value: unknown): string {
  if (typeof value === 'string') return words(value).length >= 3 ? value.trim() : `${label(key)}: ${value.trim()}`;
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const record = value as Record<string, unknown>;
    if (typeof record.content === 'string' && record.content.trim()) return record.content.trim();
    const fields = Object.entries(record).filter(([k]) => k !== 'importance' && k !== 'category');
    return `${label(key)}: ${fields.map(([k, v]) => `${label(k)} ${asText(v)}`).join('; ')}`;
  }
  return `${label(key)}: ${asText(value)}`;
}

/** An entry may say how it wants to be kept: `{content, importance, category}`. */
function explicitChoices(value: unknown): { importance?: number; category?: ExtractionCategory } {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return {};
  const record = value as Record<string, unknown>;
  const importance =
    typeof record.importance === 'number' && record.importance >= 0 && record.importance <= 1
      ? record.importance
      : undefined;
  const category = EXTRACTION_CATEGORIES.find((c) => c === record.category);
  return { ...(importance === undefined ? {} : { importance }), ...(category ? { category } : {}) };
}

/** The entry version a memory came from (key and value), so a second commit (or a retried one) skips it. */
const entryMarker = (key: string, valueHash: string): string => `${key}\u0000${valueHash}`;
const valueHash = (value: unknown): string => contentHash(JSON.stringify(value));

/**
 * Session commit: working-memory entries are scored and categorised (rules, or the language model when one is
 * configured), filtered by the thresholds, and stored through the write pipeline with the session's id.
 * Idempotent: an entry version already committed by this session is not committed again, so the background
 * auto-commit can be retried after a crash without creating anything twice.
 */
export class SessionCommitter {
  constructor(private readonly deps: DerivationDeps) {}

  async commit(session: Session, options: CommitOptions): Promise<CommitResult> {
    const started = performance.now();
    const { storage, memories, workspaces } = this.deps;
    const entries = (await storage.sessions.entries(session.id, isoNow(this.deps.clock))).filter(
      (e) => !isEmpty(e.value),
    );
    const extracted = (await this.assess(entries))
      .filter(
        (c) =>
          c.importance >= options.minImportance &&
          (options.categories === null || options.categories.includes(c.category)),
      )
      .sort((a, b) => b.importance - a.importance)
      .slice(0, options.maxMemories);

    const committed = await this.committedMarkers(session.workspace_id, session.id);
    const fresh = extracted.filter((c) => !committed.has(entryMarker(c.entry.key, valueHash(c.entry.value))));
    const scope = await workspaces.writeScope(session.workspace_id);
    const writeScope = options.deduplicate ? scope : { ...scope, dedup: { ...scope.dedup, enabled: false } };
    const outcomes =
      fresh.length > 0
        ? await memories.createMany(
            writeScope,
            fresh.map((c) => this.draft(session, c)),
          )
        : [];

    const breakdown: Record<string, number> = {};
    let created = 0;
    outcomes.forEach((outcome, i) => {
      if ('error' in outcome || outcome.action !== 'created') return;
      created++;
      const category = fresh[i]!.category;
      breakdown[category] = (breakdown[category] ?? 0) + 1;
    });
    return {
      session_id: session.id,
      memories_extracted: extracted.length,
      memories_deduplicated: extracted.length - created,
      memories_created: created,
      breakdown,
      extraction_time_ms: Math.round(performance.now() - started),
    };
  }

  private draft(session: Session, candidate: Candidate): MemoryDraft {
    const { entry } = candidate;
    return {
      content: candidate.content,
      type: candidate.type,
      subtype: candidate.subtype,
      importance: candidate.importance,
      context_id: session.context_id,
      user_id: session.user_id ?? undefined,
      session_id: session.id,
      metadata: {
        source: 'session_commit',
        category: candidate.category,
        extraction_method: candidate.method,
        working_memory_key: entry.key,
        working_memory_value_hash: valueHash(entry.value),
      },
    };
  }

  private async assess(entries: readonly WorkingMemoryEntry[]): Promise<Candidate[]> {
    const byRules = (): Candidate[] =>
      entries.map((entry) => {
        const content = entryText(entry.key, entry.value);
        return this.withExplicitChoices({ entry, content, method: 'rules', ...assessStatement(content, entry.key) });
      });
    const { llm, log } = this.deps;
    if (!llm || entries.length === 0) return byRules();
    try {
      const input = entries.map((e) => `${e.key}: ${entryText(e.key, e.value)}`).join('\n');
      const byKey = new Map(entries.map((e) => [e.key, e]));
      const items = await extractWithLlm(llm, SYSTEM, input);
      return items.flatMap((item) => {
        const entry = byKey.get(String(item.ref));
        if (!entry) return [];
        return [
          this.withExplicitChoices({
            entry,
            content: item.content,
            method: 'llm',
            category: item.category,
            importance: item.importance,
            ...filingOf(item.category),
          }),
        ];
      });
    } catch (error) {
      log.warn(
        { err: error instanceof Error ? error.message : String(error) },
        'LLM commit scoring failed; using rules',
      );
      return byRules();
    }
  }

  private withExplicitChoices(candidate: Candidate): Candidate {
    const chosen = explicitChoices(candidate.entry.value);
    return {
      ...candidate,
      ...chosen,
      ...(chosen.category && chosen.category !== candidate.category ? filingOf(chosen.category) : {}),
    };
  }

  private async committedMarkers(workspaceId: string, sessionId: string): Promise<Set<string>> {
    const page = await this.deps.storage.memories.list(
      workspaceId,
      { sessionId, statuses: ['active', 'archived', 'deleted'] },
      { limit: 10_000 },
    );
    const markers = new Set<string>();
    for (const m of page.items) {
      const { working_memory_key: key, working_memory_value_hash: hash } = m.metadata;
      if (typeof key === 'string' && typeof hash === 'string') markers.add(entryMarker(key, hash));
    }
    return markers;
  }
}

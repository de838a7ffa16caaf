import { performance } from 'node:perf_hooks';
import type { Session, WorkingMemoryEntry } from '../../storage/types.js';
import { isoNow } from '../clock.js';
import { EXTRACTION_CATEGORIES, filingOf, type ExtractionCategory } from '../extraction/categories.js';
import { extractWithLlm } from '../extraction/llm.js';
import { assessStatement, type Assessment } from '../extraction/salience.js';
import type { MemoryDraft } from '../memories/records.js';
import { contentHash, words } from '../text/index.js';
import { STOPWORDS } from '../text/stopwords.js';
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

/** A record's fields that say how to keep it (`explicitChoices`), not what it holds. */
const CHOICES = new Set(['importance', 'category']);

/**
 * A value in words: a string as it is, a list's items one after another ("renew passport, buy JR pass"), a record's
 * fields each after its name in their alphabetical order ("name Hotel Kanra; nights 7": PostgreSQL's jsonb keeps a
 * record's keys shorter first, so the order they were written in is not the order read back on both backends). A list
 * was written as JSON ('["renew passport", …]'), quotes and brackets in the memory's text.
 */
function spoken(value: unknown): string {
  if (typeof value === 'string') return value.trim();
  if (Array.isArray(value)) return value.map(spoken).join(', ');
  if (typeof value === 'object' && value !== null)
    return Object.entries(value)
      .filter(([field]) => !CHOICES.has(field))
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([field, v]) => `${label(field)} ${spoken(v)}`)
      .join('; ');
  return String(value);
}

/**
 * Whether a string says something without its key: three words or more, one of them a function word ("Kim wants a
 * ryokan for one night", "The launch deadline is June 10"). A bare value has none ("Kyoto, 3-10 April" of
 * `destination`, "renew passport, buy JR pass" of `next_steps`) and means nothing found without its key.
 */
function isStatement(text: string): boolean {
  const said = words(text);
  return said.length >= 3 && said.some((word) => STOPWORDS.has(word));
}

/** An entry as a statement: a sentence stays as it is; a bare value is said with its key ("destination: Kyoto"). */
export function entryText(key: string, value: unknown): string {
  if (typeof value === 'string' && isStatement(value)) return value.trim();
  const record =
    typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  if (typeof record.content === 'string' && record.content.trim()) return record.content.trim();
  return `${label(key)}: ${spoken(value)}`;
}

/** An entry as the model reads it, "key: value", the key as written (the model names it back as `ref`). */
function modelLine(entry: WorkingMemoryEntry): string {
  const text = entryText(entry.key, entry.value);
  const keyed = `${label(entry.key)}: `;
  return `${entry.key}: ${text.startsWith(keyed) ? text.slice(keyed.length) : text}`;
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
      const input = entries.map(modelLine).join('\n');
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

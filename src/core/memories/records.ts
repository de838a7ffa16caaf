import type { JsonObject, Memory, MemoryType, NewMemory, Session } from '../../storage/types.js';
import { classifyByRules } from './classify.js';
import { mentionsOf } from './mentioned-dates.js';
import { eventTimeFromMetadata } from './event-time.js';
import { contentHash } from '../text/index.js';
import { extractiveTiers } from './tiers.js';

/** What a caller asks to remember. Everything but `content` has a default. */
export interface MemoryDraft {
  content: string;
  type?: MemoryType | undefined;
  subtype?: string | null | undefined;
  importance?: number | undefined;
  tags?: string[] | undefined;
  metadata?: JsonObject | undefined;
  /** Ids of memories in the same workspace to link to (`related_to`). */
  associations?: string[] | undefined;
  context_id?: string | undefined;
  observer_id?: string | undefined;
  subject_id?: string | undefined;
  user_id?: string | undefined;
  session_id?: string | undefined;
  pinned?: boolean | undefined;
  /** Set by the pipeline for derived memories (facts, insights). */
  source_memory_id?: string | undefined;
  source_scope?: string | undefined;
}

/** A write made through a session belongs to that session and inherits its context and user. */
export function withSessionDefaults(
  draft: MemoryDraft,
  session: Pick<Session, 'id' | 'context_id' | 'user_id'> | null,
): MemoryDraft {
  if (!session) return draft;
  return {
    ...draft,
    session_id: draft.session_id ?? session.id,
    context_id: draft.context_id ?? session.context_id,
    user_id: draft.user_id ?? session.user_id ?? undefined,
  };
}

export interface WriteScope {
  workspaceId: string;
  tenantId: string;
}

export const DEFAULT_IMPORTANCE = 0.5;
export const DEFAULT_CONTEXT = '_default';

/** A new memory record with its defaults, classification, tiers and event time filled in. */
export function buildMemory(
  scope: WriteScope,
  id: string,
  draft: MemoryDraft,
  embedding: Float32Array,
  now: string,
): NewMemory {
  const classified = draft.type ? { type: draft.type, subtype: draft.subtype ?? null } : classifyByRules(draft.content);
  const metadata = draft.metadata ?? {};
  const { abstract, overview } = extractiveTiers(draft.content);
  const occurredAt = eventTimeFromMetadata(metadata, new Date(now));
  return {
    id,
    workspace_id: scope.workspaceId,
    tenant_id: scope.tenantId,
    context_id: draft.context_id ?? DEFAULT_CONTEXT,
    user_id: draft.user_id ?? null,
    content: draft.content,
    content_hash: contentHash(draft.content),
    type: classified.type,
    subtype: draft.subtype !== undefined ? draft.subtype : classified.subtype,
    importance: draft.importance ?? DEFAULT_IMPORTANCE,
    tags: dedupeTags(draft.tags ?? []),
    metadata,
    abstract,
    overview,
    session_id: draft.session_id ?? null,
    access_count: 0,
    last_accessed_at: null,
    decay_factor: 1,
    source_scope: draft.source_scope ?? null,
    source_memory_id: draft.source_memory_id ?? null,
    pinned: draft.pinned ?? false,
    status: 'active',
    deleted_at: null,
    archived_at: null,
    observer_id: draft.observer_id ?? null,
    subject_id: draft.subject_id ?? null,
    occurred_at: occurredAt,
    created_at: now,
    updated_at: now,
    embedding,
    mentions: mentionsOf({
      content: draft.content,
      occurred_at: occurredAt,
      created_at: now,
      source_scope: draft.source_scope ?? null,
    }),
  };
}

export const dedupeTags = (tags: readonly string[]): string[] => [...new Set(tags)];

/** Whom and what a memory is of: the fields a recall filters by, as a stored memory holds them. */
type Attributed = Partial<Record<'context_id' | 'user_id' | 'observer_id' | 'subject_id', string | null>>;

/**
 * A memory's attribution as one value, a draft's with the defaults `buildMemory` gives it. A duplicate shares it:
 * the same text of another customer (`subject_id`), user, agent or context is no duplicate, since a recall filtered to
 * that one would not find the memory it was folded into ("The customer is on the Pro plan." of two customers kept
 * one, and the second customer's recall found nothing).
 */
export const attributionKey = (m: Attributed): string =>
  JSON.stringify([m.context_id ?? DEFAULT_CONTEXT, m.user_id ?? null, m.observer_id ?? null, m.subject_id ?? null]);

/** Of the memories holding one text (oldest first), the first whose `attributionKey` is `attribution`. */
export const sameAttributed = (memories: readonly Memory[] | undefined, attribution: string): Memory | undefined =>
  memories?.find((memory) => attributionKey(memory) === attribution);

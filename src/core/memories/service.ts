import { AppError, invalid, notFound } from '../../errors.js';
import type { EmbeddingProvider } from '../../providers/embedding/types.js';
import type {
  Memory,
  MemoryFilter,
  MemoryPatch,
  MemoryStatus,
  NewMemory,
  NewTask,
  Storage,
} from '../../storage/types.js';
import type { Access } from '../access/access.js';
import { isoNow, type Clock } from '../clock.js';
import type { CoreEvents } from '../events.js';
import { newId } from '../ids.js';
import { noTelemetry, type Telemetry } from '../telemetry.js';
import { contentHash, normaliseContent } from '../text/index.js';
import { decidedAgain, decideDuplicate, type DedupDecision, type DedupPolicy, type RewriteDecision } from './dedup.js';
import { mentionsOf } from './mentioned-dates.js';
import { eventTimeFromMetadata } from './event-time.js';
import { runBatch, type BatchOperation, type BatchOutcome } from './batch.js';
import {
  attributionKey,
  buildMemory,
  dedupeTags,
  sameAttributed,
  withSessionDefaults,
  type MemoryDraft,
  type WriteScope,
} from './records.js';
import { extractiveTiers } from './tiers.js';

export type WriteAction = 'created' | 'skipped' | 'updated' | 'merged';

export interface WriteResult {
  memory: Memory;
  action: WriteAction;
}

export type WriteOutcome = WriteResult | { error: AppError };

export interface MemoryWriteScope extends WriteScope {
  dedup: DedupPolicy;
}

/** Fields PUT /v1/memories/{id} may change. */
export interface MemoryUpdate {
  content?: string | undefined;
  type?: Memory['type'] | undefined;
  subtype?: string | null | undefined;
  importance?: number | undefined;
  tags?: string[] | undefined;
  metadata?: Memory['metadata'] | undefined;
  pinned?: boolean | undefined;
  /** `archived` takes a memory out of default recall; `active` brings it back. */
  status?: Extract<MemoryStatus, 'active' | 'archived'> | undefined;
}

export const ENRICH_TASK = 'memory.enrich';

/** What POST /decay subtracts from importance when the caller names no rate. */
export const DEFAULT_DECAY_RATE = 0.1;

/** Payload of the background step that follows every content write. */
export interface EnrichPayload {
  memory_id: string;
  /** The type came from rules, so a configured language model may refine it. */
  auto_classified: boolean;
}

/** Neighbours looked at for the duplicate decision. */
const DEDUP_NEIGHBOURS = 3;

/** Which memories a listing shows by status; `all` is every status. */
export type StatusFilter = 'active' | 'archived' | 'deleted' | 'all';

const STATUSES: Record<StatusFilter, MemoryStatus[]> = {
  active: ['active'],
  archived: ['archived'],
  deleted: ['deleted'],
  all: ['active', 'archived', 'deleted'],
};

export interface MemoryListing {
  memories: Memory[];
  nextCursor: string | null;
  /** Every memory matching the filter, beyond this page. */
  total: number;
}

interface MemoryServiceDeps {
  storage: Storage;
  embedder: EmbeddingProvider;
  clock: Clock;
  events: CoreEvents;
  /** The write scope (tenant, duplicate policy) of a workspace that must exist. */
  writeScope(workspaceId: string): Promise<MemoryWriteScope>;
  /** Slides the expiry of the session a call worked through (SessionService.keepAlive). */
  keepSessionAlive(sessionId: string): Promise<void>;
  /** Resolves once the recall accesses of a memory counted so far are written. */
  settleAccess(workspaceId: string, memoryId: string): Promise<void>;
  /** Traces the pipeline's steps; nothing by default. */
  telemetry?: Telemetry;
}

/**
 * The write pipeline (hash, embed, duplicate decision, one transaction for rows + vectors + keywords + queued
 * follow-up work) and the other memory operations. Slow derived work (LLM tiers, facts, links, contradiction
 * checks) runs from the durable queue after the write is acknowledged.
 */
export class MemoryService {
  private readonly telemetry: Telemetry;

  constructor(private readonly deps: MemoryServiceDeps) {
    this.telemetry = deps.telemetry ?? noTelemetry;
  }

  /** Remember, as a caller asks it: a write through a session belongs to the session, which it keeps alive. */
  async remember(access: Access, draft: MemoryDraft): Promise<WriteResult> {
    const scope = await this.deps.writeScope(access.workspaceId);
    const result = await this.create(scope, withSessionDefaults(draft, access.session));
    if (access.session) await this.deps.keepSessionAlive(access.session.id);
    return result;
  }

  /**
   * Many creates, updates and deletes in the caller's workspace; creates inherit the session's context and user. A
   * batch of which nothing succeeded leaves the session as it was.
   */
  async batch(access: Access, operations: readonly BatchOperation[]): Promise<BatchOutcome> {
    const scope = await this.deps.writeScope(access.workspaceId);
    const withDefaults = operations.map((o) =>
      'draft' in o ? { ...o, draft: withSessionDefaults(o.draft, access.session) } : o,
    );
    const outcome = await runBatch(this, scope, withDefaults);
    if (access.session && outcome.successful > 0) await this.deps.keepSessionAlive(access.session.id);
    return outcome;
  }

  async create(scope: MemoryWriteScope, draft: MemoryDraft): Promise<WriteResult> {
    const [outcome] = await this.createMany(scope, [draft]);
    if (!outcome || 'error' in outcome)
      throw outcome?.error ?? new AppError('internal_error', 'memory was not written');
    return outcome;
  }

  /**
   * Writes many memories with one embedding call and one transaction. Each draft gets its own outcome: one
   * draft linking to an unknown memory fails alone.
   */
  createMany(scope: MemoryWriteScope, drafts: readonly MemoryDraft[]): Promise<WriteOutcome[]> {
    return this.telemetry.span('memory.write', async (span) => {
      const outcomes = await this.write(scope, drafts);
      span.setAttributes({
        'memd.memory.drafts': drafts.length,
        'memd.memory.created': outcomes.filter((o) => 'action' in o && o.action === 'created').length,
      });
      return outcomes;
    });
  }

  private async write(scope: MemoryWriteScope, drafts: readonly MemoryDraft[]): Promise<WriteOutcome[]> {
    const { storage, embedder, clock } = this.deps;
    const workspaceId = scope.workspaceId;
    const outcomes: Array<WriteOutcome | undefined> = new Array(drafts.length);
    const trimmed = drafts.map((d) => ({ ...d, content: d.content.trim() }));
    const hashes = trimmed.map((d) => contentHash(d.content));

    // A duplicate is the same text attributed alike (records.ts `attributionKey`).
    const attributions = trimmed.map(attributionKey);
    const keys = attributions.map((attribution, i) => `${hashes[i]}\u0000${attribution}`);

    const linkErrors = await this.unknownAssociations(workspaceId, trimmed);
    const exact = await storage.memories.findByContentHashes(workspaceId, hashes);
    const firstOfText = new Map<string, number>();
    const fresh: number[] = [];
    trimmed.forEach((_, i) => {
      const linkError = linkErrors.get(i);
      const existing = sameAttributed(exact.get(hashes[i]!), attributions[i]!);
      if (linkError) outcomes[i] = { error: linkError };
      else if (existing) outcomes[i] = { memory: existing, action: 'skipped' };
      else if (!firstOfText.has(keys[i]!)) {
        firstOfText.set(keys[i]!, i);
        fresh.push(i);
      }
    });

    const vectors = await embedder.embed(fresh.map((i) => normaliseContent(trimmed[i]!.content)));
    const decisions = await this.telemetry.span('memory.write.dedup', () =>
      this.decide(
        scope,
        fresh.map((i) => trimmed[i]!),
        vectors,
      ),
    );
    const now = isoNow(clock);
    const inserts: Array<{ index: number; memory: NewMemory }> = [];
    const rewrites: Array<{ index: number; decision: RewriteDecision; embedding: Float32Array }> = [];
    for (const [position, index] of fresh.entries()) {
      const embedding = vectors[position]!;
      const decision = decisions[position]!;
      if (decision.action === 'create')
        inserts.push({ index, memory: buildMemory(scope, newId('mem'), trimmed[index]!, embedding, now) });
      else if (decision.action === 'skip') outcomes[index] = { memory: decision.existing, action: 'skipped' };
      else rewrites.push({ index, decision, embedding });
    }

    const inserted: typeof inserts = [];
    let rewritten = 0;
    await this.telemetry.span('memory.write.commit', () =>
      storage.transaction(async (tx) => {
        // Another node may have written the same text, or changed a memory this write rewrites, since the decisions
        // above were read: both are read again here, held until the commit so that such a write waits for this one
        // and then finds what it wrote (two merges into one memory had kept one text of the two, and a text written
        // through two nodes at once was stored twice). Rows first, then hashes, each in one order: no two writes
        // wait for each other.
        const current = await tx.memories.getForChange(
          workspaceId,
          rewrites.map((r) => r.decision.existing.id),
        );
        const written = [...inserts, ...rewrites].map(({ index }) => hashes[index]!);
        await tx.memories.holdContentHashes(workspaceId, written);
        const taken = await tx.memories.findByContentHashes(workspaceId, written);
        const takenMeanwhile = (index: number): boolean => {
          const existing = sameAttributed(taken.get(hashes[index]!), attributions[index]!);
          if (existing) outcomes[index] = { memory: existing, action: 'skipped' };
          return existing !== undefined;
        };
        const still: typeof rewrites = [];
        for (const rewrite of rewrites) {
          if (takenMeanwhile(rewrite.index)) continue;
          const draft = trimmed[rewrite.index]!;
          const fresh = current.find((m) => m.id === rewrite.decision.existing.id);
          const decision = decidedAgain(rewrite.decision, fresh, draft.content, scope.dedup);
          if (decision.action === 'create')
            inserts.push({
              index: rewrite.index,
              memory: buildMemory(scope, newId('mem'), draft, rewrite.embedding, now),
            });
          else still.push({ ...rewrite, decision });
        }
        for (const insert of inserts) if (!takenMeanwhile(insert.index)) inserted.push(insert);
        if (inserted.length > 0) {
          await tx.memories.insert(inserted.map((i) => i.memory));
          await tx.tasks.enqueue(
            inserted.map(({ index, memory }) =>
              enrichTask(memory.id, workspaceId, now, trimmed[index]!.type === undefined),
            ),
          );
          for (const { index, memory } of inserted)
            await this.link(tx, memory, trimmed[index]!.associations ?? [], now);
        }
        for (const { index, decision, embedding } of still) {
          const memory = await this.rewrite(tx, decision, trimmed[index]!, embedding, now);
          outcomes[index] = { memory, action: decision.action === 'update' ? 'updated' : 'merged' };
          rewritten += 1;
        }
      }),
    );

    for (const { index, memory } of inserted) {
      const { embedding: _vector, ...record } = memory;
      outcomes[index] = { memory: record, action: 'created' };
    }
    // A text repeated within one call shares the outcome of its first occurrence.
    trimmed.forEach((_, i) => {
      if (outcomes[i] !== undefined) return;
      const first = outcomes[firstOfText.get(keys[i]!)!]!;
      outcomes[i] = 'error' in first ? first : { memory: first.memory, action: 'skipped' };
    });
    await this.changed(workspaceId, inserted.length + rewritten > 0);
    return outcomes as WriteOutcome[];
  }

  /** The duplicate decision for each draft, from one batched neighbour search and one lookup of the candidates. */
  private async decide(
    scope: MemoryWriteScope,
    drafts: readonly MemoryDraft[],
    vectors: readonly Float32Array[],
  ): Promise<DedupDecision[]> {
    const create: DedupDecision = { action: 'create' };
    if (!scope.dedup.enabled || drafts.length === 0) return drafts.map(() => create);
    const { memories } = this.deps.storage;
    const neighbours = await memories.vectorSearchMany(scope.workspaceId, vectors, {
      k: DEDUP_NEIGHBOURS,
      filter: { derived: false },
      minScore: scope.dedup.mergeThreshold,
    });
    const close = neighbours.map((found, i) =>
      drafts[i]!.source_memory_id ? [] : found.filter((n) => n.score >= scope.dedup.mergeThreshold),
    );
    const candidateIds = [...new Set(close.flat().map((n) => n.id))];
    if (candidateIds.length === 0) return drafts.map(() => create);
    const byId = new Map((await memories.getMany(scope.workspaceId, candidateIds)).map((m) => [m.id, m]));
    return drafts.map((draft, i) => {
      // Only a memory attributed alike is rewritten: another customer's similar note stays theirs.
      const key = attributionKey(draft);
      const similar = close[i]!.flatMap((n) => {
        const memory = byId.get(n.id);
        return memory && attributionKey(memory) === key ? [{ memory, similarity: n.score }] : [];
      });
      return similar.length === 0 ? create : decideDuplicate(draft.content, null, similar, scope.dedup);
    });
  }

  /** UPDATE and MERGE: the existing memory absorbs the new one (text, tags, metadata, importance). */
  private async rewrite(
    tx: Storage,
    decision: RewriteDecision,
    draft: MemoryDraft,
    embedding: Float32Array,
    now: string,
  ): Promise<Memory> {
    const existing = decision.existing;
    // Both take the new text: an update words the same content anew, a merge's new text holds all the old one's words.
    const content = draft.content;
    const metadata = { ...existing.metadata, ...draft.metadata };
    if (decision.action === 'merge') {
      const mergedFrom = Array.isArray(existing.metadata.merged_from) ? existing.metadata.merged_from : [];
      metadata.merged_from = [
        ...mergedFrom,
        // The text it held, which the new one extends.
        { content_hash: existing.content_hash, similarity: round(decision.similarity), merged_at: now },
      ];
    }
    const importance = Math.min(
      Math.max(existing.importance, draft.importance ?? 0) * (decision.action === 'merge' ? 1.1 : 1),
      1,
    );
    const patch: MemoryPatch = {
      content,
      content_hash: contentHash(content),
      tags: dedupeTags([...existing.tags, ...(draft.tags ?? [])]),
      metadata,
      importance,
      occurred_at: eventTimeFromMetadata(metadata, new Date(existing.created_at)) ?? existing.occurred_at,
      updated_at: now,
      ...extractiveTiers(content),
    };
    patch.mentions = mentionsOf({ ...existing, ...patch });
    const updated = await tx.memories.update(
      existing.workspace_id,
      existing.id,
      patch,
      content === existing.content ? undefined : embedding,
    );
    if (content !== existing.content) {
      // Its facts were of the text it held: they go, and the new text is decomposed and linked as a new memory is.
      await this.replaceDerived(tx, existing.workspace_id, existing.id, now, false);
      await tx.tasks.enqueue([enrichTask(existing.id, existing.workspace_id, now, false, true)]);
    }
    return updated!;
  }

  /** Links a new memory to the memories its draft named (`related_to`, moderate strength). */
  private async link(tx: Storage, memory: NewMemory, targetIds: readonly string[], now: string): Promise<void> {
    await tx.associations.upsertMany(
      targetIds.map((targetId) => ({
        id: newId('assoc'),
        workspace_id: memory.workspace_id,
        source_id: memory.id,
        target_id: targetId,
        relationship: 'related_to',
        strength: 0.5,
        metadata: { created_with_memory: true },
        created_at: now,
      })),
    );
  }

  /** Drafts whose `associations` name memories that are not active in the workspace, with the error for each. */
  private async unknownAssociations(
    workspaceId: string,
    drafts: readonly MemoryDraft[],
  ): Promise<Map<number, AppError>> {
    const wanted = [...new Set(drafts.flatMap((d) => d.associations ?? []))];
    if (wanted.length === 0) return new Map();
    const found = new Set(
      (await this.deps.storage.memories.getMany(workspaceId, wanted))
        .filter((m) => m.status === 'active')
        .map((m) => m.id),
    );
    const errors = new Map<number, AppError>();
    drafts.forEach((d, i) => {
      const missing = (d.associations ?? []).filter((id) => !found.has(id));
      if (missing.length > 0)
        errors.set(i, invalid('/associations', `unknown memory id(s) in this workspace: ${missing.join(', ')}`));
    });
    return errors;
  }

  async get(workspaceId: string, id: string): Promise<Memory> {
    // Recall counts accesses a moment later, in batches; a read right after a recall must see them.
    await this.deps.settleAccess(workspaceId, id);
    const memory = await this.deps.storage.memories.get(workspaceId, id);
    if (!memory) throw notFound('memory', id);
    return memory;
  }

  /** A page of a workspace's memories, newest first, with the count of all that match. */
  async list(
    workspaceId: string,
    status: StatusFilter,
    filter: Omit<MemoryFilter, 'statuses'>,
    page: { limit: number; cursor?: string | undefined },
  ): Promise<MemoryListing> {
    await this.deps.writeScope(workspaceId);
    const statusFilter: MemoryFilter = { ...filter, statuses: STATUSES[status] };
    const [found, total] = await Promise.all([
      this.deps.storage.memories.list(workspaceId, statusFilter, page),
      this.deps.storage.memories.count(workspaceId, statusFilter),
    ]);
    return { memories: found.items, nextCursor: found.nextCursor, total };
  }

  async update(workspaceId: string, id: string, change: MemoryUpdate): Promise<Memory> {
    const { storage, embedder, clock } = this.deps;
    const before = await this.get(workspaceId, id);
    refuseDeleted(before);
    const content = change.content?.trim();
    // Embedded before the transaction, which holds the row (inside it only if the text changed meanwhile).
    let embedding =
      content !== undefined && content !== before.content
        ? (await embedder.embed([normaliseContent(content)]))[0]!
        : undefined;
    const now = isoNow(clock);
    const updated = await storage.transaction(async (tx) => {
      // Read again and held: a delete or another update through another node waits, or has happened (an update
      // read before a concurrent delete had brought the memory back as active).
      const [current] = await tx.memories.getForChange(workspaceId, [id]);
      if (!current) throw notFound('memory', id);
      refuseDeleted(current);
      const patch = patchFor(change, current, now);
      const contentChanged = patch.content !== undefined;
      if (contentChanged) embedding ??= (await embedder.embed([normaliseContent(patch.content!)]))[0]!;
      const row = await tx.memories.update(workspaceId, id, patch, contentChanged ? embedding : undefined);
      if (contentChanged) {
        await this.replaceDerived(tx, workspaceId, id, now, false);
        await tx.tasks.enqueue([enrichTask(id, workspaceId, now, false, true)]);
      }
      return row;
    });
    await this.changed(workspaceId, true);
    return updated!;
  }

  /** Soft delete keeps the record with status `deleted`; hard delete removes it. Derived facts follow their parent. */
  async delete(workspaceId: string, id: string, hard: boolean): Promise<void> {
    if (hard) {
      if ((await this.hardDeleteMany(workspaceId, [id])) === 0) throw notFound('memory', id);
      return;
    }
    const now = isoNow(this.deps.clock);
    await this.deps.storage.transaction(async (tx) => {
      const [current] = await tx.memories.getForChange(workspaceId, [id]);
      if (!current) throw notFound('memory', id);
      if (current.status !== 'deleted') {
        await tx.memories.update(workspaceId, id, { status: 'deleted', deleted_at: now, updated_at: now });
        await this.replaceDerived(tx, workspaceId, id, now, false);
      }
    });
    await this.changed(workspaceId, true);
  }

  /** Removes for good the memories among `ids` that exist, with their derived facts, in one transaction. */
  async hardDeleteMany(workspaceId: string, ids: readonly string[]): Promise<number> {
    if (ids.length === 0) return 0;
    const now = isoNow(this.deps.clock);
    const removed = await this.deps.storage.transaction(async (tx) => {
      for (const id of ids) await this.replaceDerived(tx, workspaceId, id, now, true);
      return tx.memories.hardDelete(workspaceId, ids);
    });
    await this.changed(workspaceId, removed > 0);
    return removed;
  }

  /** Lowers importance by `rate` (floor 0) and the decay factor by the same proportion; pinned memories are exempt. */
  async decay(workspaceId: string, id: string, rate = DEFAULT_DECAY_RATE): Promise<Memory> {
    // The memory it answers with counts the accesses recall recorded a moment ago (see `get`).
    await this.deps.settleAccess(workspaceId, id);
    const now = isoNow(this.deps.clock);
    const { memory, changed } = await this.deps.storage.transaction(async (tx) => {
      // Computed from the row as held: two decays at once through two nodes both apply (one had been lost).
      const [current] = await tx.memories.getForChange(workspaceId, [id]);
      if (!current) throw notFound('memory', id);
      if (current.pinned || current.status === 'deleted') return { memory: current, changed: false };
      const updated = await tx.memories.update(workspaceId, id, {
        importance: round(Math.max(0, current.importance - rate)),
        decay_factor: round(current.decay_factor * (1 - rate)),
        updated_at: now,
      });
      return { memory: updated!, changed: true };
    });
    await this.changed(workspaceId, changed);
    return memory;
  }

  /** Derived memories (facts) of a parent whose content changed or went away: removed, or soft-deleted. */
  private async replaceDerived(
    tx: Storage,
    workspaceId: string,
    parentId: string,
    now: string,
    hard: boolean,
  ): Promise<void> {
    const statuses: MemoryStatus[] = hard ? ['active', 'archived', 'deleted'] : ['active', 'archived'];
    const derived = await tx.memories.list(workspaceId, { sourceMemoryId: parentId, statuses }, { limit: 10_000 });
    const ids = derived.items.map((m) => m.id);
    if (ids.length === 0) return;
    if (hard) await tx.memories.hardDelete(workspaceId, ids);
    else
      for (const factId of ids)
        await tx.memories.update(workspaceId, factId, { status: 'deleted', deleted_at: now, updated_at: now });
  }

  /** After a commit, before the write is acknowledged (see CoreEvents.memoriesChanged). */
  private async changed(workspaceId: string, wroteSomething: boolean): Promise<void> {
    if (!wroteSomething) return;
    this.deps.events.tasksQueued();
    await this.deps.events.memoriesChanged(workspaceId);
  }
}

/** A soft-deleted memory takes no change but a hard delete. */
function refuseDeleted(memory: Memory): void {
  if (memory.status === 'deleted')
    throw new AppError('conflict', `memory '${memory.id}' is deleted; only a hard delete applies to it`);
}

/** What an update changes of the memory as it is now: only what differs, with the time of the change. */
function patchFor(change: MemoryUpdate, current: Memory, now: string): MemoryPatch {
  const patch: MemoryPatch = { updated_at: now };
  for (const key of ['type', 'subtype', 'importance', 'metadata', 'pinned'] as const) {
    if (change[key] !== undefined) (patch as Record<string, unknown>)[key] = change[key];
  }
  if (change.tags !== undefined) patch.tags = dedupeTags(change.tags);
  if (change.status !== undefined && change.status !== current.status) {
    patch.status = change.status;
    patch.archived_at = change.status === 'archived' ? now : null;
  }
  const content = change.content?.trim();
  if (content !== undefined && content !== current.content) {
    patch.content = content;
    patch.content_hash = contentHash(content);
    Object.assign(patch, extractiveTiers(content));
  }
  if (change.metadata !== undefined)
    patch.occurred_at = eventTimeFromMetadata(change.metadata, new Date(current.created_at));
  if (patch.content !== undefined || patch.occurred_at !== undefined)
    patch.mentions = mentionsOf({ ...current, ...patch });
  return patch;
}

/**
 * The enrichment of a memory just written. `textChanged`: the memory had a text before, which a run already under way
 * may have read: that run's facts are then not kept (MemoryEnricher writes only facts of the text it finds), and this
 * task runs after it rather than being dropped as a duplicate of it.
 */
export function enrichTask(
  memoryId: string,
  workspaceId: string,
  now: string,
  autoClassified: boolean,
  textChanged = false,
): NewTask {
  const payload: EnrichPayload = { memory_id: memoryId, auto_classified: autoClassified };
  return {
    kind: ENRICH_TASK,
    workspaceId,
    payload: { ...payload },
    runAt: now,
    dedupeKey: `${ENRICH_TASK}:${memoryId}`,
    rerunIfRunning: textChanged,
  };
}

const round = (x: number): number => Math.round(x * 1e6) / 1e6;

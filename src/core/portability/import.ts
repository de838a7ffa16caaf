import type { EmbeddingProvider } from '../../providers/embedding/types.js';
import type { JsonObject, Memory, MemoryStatus, MemoryType, NewMemory, Storage } from '../../storage/types.js';
import { isoNow, type Clock } from '../clock.js';
import type { CoreEvents } from '../events.js';
import { normaliseRelationship } from '../graph/taxonomy.js';
import { newId } from '../ids.js';
import { eventTimeFromMetadata } from '../memories/event-time.js';
import { mentionsOf } from '../memories/mentioned-dates.js';
import {
  attributionKey,
  DEFAULT_CONTEXT,
  DEFAULT_IMPORTANCE,
  dedupeTags,
  sameAttributed,
} from '../memories/records.js';
import { extractiveTiers } from '../memories/tiers.js';
import { contentHash, normaliseContent } from '../text/index.js';
import type { WriteScope } from '../memories/records.js';

/** A memory line's data, as exported (every field but `content` may be absent). */
export interface ImportedMemory {
  content: string;
  id?: string | undefined;
  type?: MemoryType | undefined;
  subtype?: string | null | undefined;
  importance?: number | undefined;
  tags?: string[] | undefined;
  metadata?: JsonObject | undefined;
  abstract?: string | null | undefined;
  overview?: string | null | undefined;
  context_id?: string | undefined;
  user_id?: string | null | undefined;
  session_id?: string | null | undefined;
  observer_id?: string | null | undefined;
  subject_id?: string | null | undefined;
  pinned?: boolean | undefined;
  status?: MemoryStatus | undefined;
  access_count?: number | undefined;
  last_accessed_at?: string | null | undefined;
  decay_factor?: number | undefined;
  source_scope?: string | null | undefined;
  source_memory_id?: string | null | undefined;
  deleted_at?: string | null | undefined;
  archived_at?: string | null | undefined;
  created_at?: string | undefined;
  updated_at?: string | undefined;
  embedding?: number[] | undefined;
}

export interface ImportedAssociation {
  source_id: string;
  target_id: string;
  relationship_type?: string | undefined;
  relationship?: string | undefined;
  strength?: number | undefined;
  metadata?: JsonObject | undefined;
  created_at?: string | undefined;
}

export type ImportRecord =
  | { kind: 'memory'; line: number; data: ImportedMemory }
  | { kind: 'association'; line: number; data: ImportedAssociation }
  | { kind: 'invalid'; line: number; message: string }
  | { kind: 'ignored' };

export interface ImportReport {
  imported: number;
  skipped_duplicates: number;
  associations_imported: number;
  errors: number;
  details: string[];
}

const BATCH = 200;
const MAX_DETAILS = 100;

interface ImportDeps {
  storage: Storage;
  embedder: EmbeddingProvider;
  clock: Clock;
  events: CoreEvents;
}

/**
 * Restores exported memories and associations into a workspace. Memories whose content hash already exists there are
 * skipped (and their edges attach to the memory that exists). Imported memories get new ids, keep their timestamps
 * and fields, and keep an exported vector only when it has the embedder's dimensions. Import restores; it does not
 * re-derive facts or links (those come with the export).
 */
export async function importRecords(
  deps: ImportDeps,
  scope: WriteScope,
  records: AsyncIterable<ImportRecord>,
): Promise<ImportReport> {
  const report: ImportReport = { imported: 0, skipped_duplicates: 0, associations_imported: 0, errors: 0, details: [] };
  const fail = (line: number, message: string) => {
    report.errors++;
    if (report.details.length < MAX_DETAILS) report.details.push(`line ${line}: ${message}`);
  };
  /** Exported id → id in this workspace (a new memory, or the existing duplicate). */
  const idMap = new Map<string, string>();
  const seenTexts = new Set<string>();
  let memories: Array<{ line: number; data: ImportedMemory }> = [];
  const associations: Array<{ line: number; data: ImportedAssociation }> = [];

  const flush = async () => {
    if (memories.length > 0) await importMemoryBatch(deps, scope, memories, idMap, seenTexts, report);
    memories = [];
  };
  for await (const record of records) {
    if (record.kind === 'invalid') fail(record.line, record.message);
    else if (record.kind === 'memory') {
      memories.push(record);
      if (memories.length >= BATCH) await flush();
    } else if (record.kind === 'association') associations.push(record);
  }
  await flush();

  const now = isoNow(deps.clock);
  for (const { line, data } of associations) {
    const relationship = normaliseRelationship(data.relationship_type ?? data.relationship ?? '');
    const source = idMap.get(data.source_id);
    const target = idMap.get(data.target_id);
    if (!relationship) fail(line, `unknown relationship '${data.relationship_type ?? data.relationship ?? ''}'`);
    else if (!source || !target)
      fail(
        line,
        `association refers to a memory that is not in this import (${!source ? data.source_id : data.target_id})`,
      );
    else if (source === target) fail(line, 'association links a memory to itself');
    else {
      await deps.storage.associations.upsert({
        id: newId('assoc'),
        workspace_id: scope.workspaceId,
        source_id: source,
        target_id: target,
        relationship,
        strength: data.strength ?? 0.5,
        metadata: data.metadata ?? {},
        created_at: data.created_at ?? now,
      });
      report.associations_imported++;
    }
  }
  if (report.imported + report.associations_imported > 0) await deps.events.memoriesChanged(scope.workspaceId);
  return report;
}

/** What a duplicate may be, by status: re-importing a backup must not resurrect what was deleted since. */
const ANY_STATUS = ['active', 'archived', 'deleted'] as const;

async function importMemoryBatch(
  deps: ImportDeps,
  scope: WriteScope,
  batch: ReadonlyArray<{ line: number; data: ImportedMemory }>,
  idMap: Map<string, string>,
  seenTexts: Set<string>,
  report: ImportReport,
): Promise<void> {
  const { storage, embedder, clock } = deps;
  const hashes = batch.map(({ data }) => contentHash(data.content));
  const existing = await storage.memories.findByContentHashes(scope.workspaceId, hashes, [...ANY_STATUS]);
  const fresh: Array<{ data: ImportedMemory; hash: string }> = [];
  batch.forEach(({ data }, i) => {
    const hash = hashes[i]!;
    // The same text of another customer, user, agent or context is no duplicate (records.ts `attributionKey`): an
    // export of a workspace holding both comes back with both.
    const attribution = attributionKey(data);
    const text = `${hash}\u0000${attribution}`;
    const duplicate: Memory | undefined = sameAttributed(existing.get(hash), attribution);
    if (duplicate || seenTexts.has(text)) {
      report.skipped_duplicates++;
      if (data.id && duplicate) idMap.set(data.id, duplicate.id);
      return;
    }
    seenTexts.add(text);
    fresh.push({ data, hash });
  });
  if (fresh.length === 0) return;

  // An exported vector of the embedder's width is kept, unless it is no direction at all: a value beyond float32, or
  // all zeros, would make every similarity to it NaN. Such a memory is embedded again.
  const reusable = (v: number[] | undefined) =>
    v !== undefined &&
    v.length === embedder.dimensions &&
    Float32Array.from(v).every(Number.isFinite) &&
    v.some((x) => x !== 0);
  const toEmbed = fresh.filter(({ data }) => !reusable(data.embedding));
  const embedded = await embedder.embed(toEmbed.map(({ data }) => normaliseContent(data.content)));
  const vectors = new Map(toEmbed.map(({ hash }, i) => [hash, embedded[i]!]));
  const now = isoNow(clock);
  const { imported, skipped } = await storage.transaction(async (tx) => {
    // Another import (or write) of the same texts at once, through any node: the hashes are held to the commit, as a
    // write holds them (MemoryStore.holdContentHashes), and what was stored meanwhile is skipped like any duplicate.
    const freshHashes = fresh.map(({ hash }) => hash);
    await tx.memories.holdContentHashes(scope.workspaceId, freshHashes);
    const takenMeanwhile = await tx.memories.findByContentHashes(scope.workspaceId, freshHashes, [...ANY_STATUS]);
    const kept = fresh.filter(({ data, hash }) => {
      const duplicate = sameAttributed(takenMeanwhile.get(hash), attributionKey(data));
      if (duplicate && data.id) idMap.set(data.id, duplicate.id);
      return !duplicate;
    });
    for (const { data } of kept) if (data.id) idMap.set(data.id, newId('mem'));
    const rows = kept.map(({ data, hash }) => importedRow(data, hash));
    await tx.memories.insert(rows);
    return { imported: rows.length, skipped: fresh.length - kept.length };
  });
  report.imported += imported;
  report.skipped_duplicates += skipped;

  function importedRow(data: ImportedMemory, hash: string): NewMemory {
    const tiers = extractiveTiers(data.content);
    const createdAt = data.created_at ?? now;
    const metadata = data.metadata ?? {};
    const occurredAt = eventTimeFromMetadata(metadata, new Date(createdAt));
    return {
      id: data.id ? idMap.get(data.id)! : newId('mem'),
      workspace_id: scope.workspaceId,
      tenant_id: scope.tenantId,
      context_id: data.context_id ?? DEFAULT_CONTEXT,
      user_id: data.user_id ?? null,
      content: data.content,
      content_hash: hash,
      type: data.type ?? 'semantic',
      subtype: data.subtype ?? null,
      importance: data.importance ?? DEFAULT_IMPORTANCE,
      tags: dedupeTags(data.tags ?? []),
      metadata,
      abstract: data.abstract ?? tiers.abstract,
      overview: data.overview ?? tiers.overview,
      session_id: data.session_id ?? null,
      access_count: data.access_count ?? 0,
      last_accessed_at: data.last_accessed_at ?? null,
      decay_factor: data.decay_factor ?? 1,
      source_scope: data.source_scope ?? null,
      // A parent exported before its facts has been mapped by now; one outside the import is forgotten.
      source_memory_id: data.source_memory_id ? (idMap.get(data.source_memory_id) ?? null) : null,
      pinned: data.pinned ?? false,
      status: data.status ?? 'active',
      deleted_at: data.deleted_at ?? null,
      archived_at: data.archived_at ?? null,
      observer_id: data.observer_id ?? null,
      subject_id: data.subject_id ?? null,
      occurred_at: occurredAt,
      created_at: createdAt,
      mentions: mentionsOf({
        content: data.content,
        occurred_at: occurredAt,
        created_at: createdAt,
        source_scope: data.source_scope ?? null,
      }),
      updated_at: data.updated_at ?? createdAt,
      embedding: reusable(data.embedding) ? Float32Array.from(data.embedding!) : vectors.get(hash)!,
    };
  }
}

import { notFound } from '../../errors.js';
import type { Association, JsonObject, Memory, Storage } from '../../storage/types.js';
import { categoryOf } from './taxonomy.js';

/** A memory as other records cite it: enough to recognise, not the whole record. */
export interface MemoryRef {
  id: string;
  type: string;
  subtype: string | null;
  status: string;
  abstract: string;
  created_at: string;
}

export interface TraceResult {
  memory: Memory;
  /** Where the memory came from: derivation, chat thread, session, or a direct write. */
  source: {
    kind: 'derived' | 'chat' | 'session' | 'direct';
    source_memory_id: string | null;
    source_scope: string | null;
    session_id: string | null;
    user_id: string | null;
    observer_id: string | null;
    metadata_source: unknown;
    thread_id: unknown;
  };
  /** The memory's ancestors, parent first: `source_memory_id`, else an outgoing `part_of` edge. */
  source_chain: Array<MemoryRef & { via: 'source_memory_id' | 'part_of' }>;
  /** Memories derived from this one (atomic facts). */
  derived_memory_ids: string[];
  /** Relationship categories of the memory's edges, with counts per type. */
  categories: Array<{ category: string; count: number; relationships: Record<string, number> }>;
  /** The memory's direct associations, strongest first, with the memory at the other end. */
  association_chain: Array<{
    association: Association;
    direction: 'outgoing' | 'incoming';
    category: string | null;
    memory: MemoryRef;
  }>;
  /** Knowledgebase articles that cite the memory. */
  articles: Array<{ id: string; title: string; kind: string }>;
}

const MAX_CHAIN = 10;
const MAX_ASSOCIATIONS = 100;
const MAX_DERIVED = 100;

/** The provenance of a memory: where it came from, what it belongs to, and what it is linked to. */
export async function traceMemory(storage: Storage, workspaceId: string, memoryId: string): Promise<TraceResult> {
  const memory = await storage.memories.get(workspaceId, memoryId);
  if (!memory) throw notFound('memory', memoryId);
  const [edges, chain, derived, articles] = await Promise.all([
    storage.associations.listForMemories(workspaceId, [memoryId], { direction: 'both' }),
    sourceChain(storage, memory),
    storage.memories.list(
      workspaceId,
      { sourceMemoryId: memoryId, statuses: ['active', 'archived'] },
      { limit: MAX_DERIVED },
    ),
    storage.knowledgebase.articlesCiting(workspaceId, memoryId),
  ]);
  const farIds = [...new Set(edges.map((e) => farEnd(e, memoryId)))];
  const far = new Map(
    (await storage.memories.getMany(workspaceId, farIds)).filter((m) => m.status !== 'deleted').map((m) => [m.id, m]),
  );
  const live = edges
    .filter((e) => far.has(farEnd(e, memoryId)))
    .sort((a, b) => b.strength - a.strength || a.id.localeCompare(b.id));

  return {
    memory,
    source: describeSource(memory),
    source_chain: chain,
    derived_memory_ids: derived.items.map((m) => m.id),
    categories: categoryCounts(live),
    association_chain: live.slice(0, MAX_ASSOCIATIONS).map((association) => ({
      association,
      direction: association.source_id === memoryId ? 'outgoing' : 'incoming',
      category: categoryOf(association.relationship),
      memory: memoryRef(far.get(farEnd(association, memoryId))!),
    })),
    articles,
  };
}

const farEnd = (edge: Association, memoryId: string): string =>
  edge.source_id === memoryId ? edge.target_id : edge.source_id;

export function memoryRef(m: Memory): MemoryRef {
  return {
    id: m.id,
    type: m.type,
    subtype: m.subtype,
    status: m.status,
    abstract: m.abstract ?? m.content.slice(0, 100),
    created_at: m.created_at,
  };
}

function describeSource(memory: Memory): TraceResult['source'] {
  const metadata: JsonObject = memory.metadata;
  const kind: TraceResult['source']['kind'] = memory.source_memory_id
    ? 'derived'
    : metadata.source === 'chat_history' || metadata.thread_id !== undefined
      ? 'chat'
      : memory.session_id
        ? 'session'
        : 'direct';
  return {
    kind,
    source_memory_id: memory.source_memory_id,
    source_scope: memory.source_scope,
    session_id: memory.session_id,
    user_id: memory.user_id,
    observer_id: memory.observer_id,
    metadata_source: metadata.source ?? null,
    thread_id: metadata.thread_id ?? null,
  };
}

/** Parent, grandparent, …: bounded, and a cycle (possible through edges) ends the walk. */
async function sourceChain(storage: Storage, memory: Memory): Promise<TraceResult['source_chain']> {
  const chain: TraceResult['source_chain'] = [];
  const seen = new Set([memory.id]);
  let current = memory;
  while (chain.length < MAX_CHAIN) {
    const parent = await parentOf(storage, current);
    if (!parent || seen.has(parent.memory.id)) break;
    seen.add(parent.memory.id);
    chain.push({ ...memoryRef(parent.memory), via: parent.via });
    current = parent.memory;
  }
  return chain;
}

async function parentOf(
  storage: Storage,
  memory: Memory,
): Promise<{ memory: Memory; via: 'source_memory_id' | 'part_of' } | null> {
  if (memory.source_memory_id) {
    const parent = await storage.memories.get(memory.workspace_id, memory.source_memory_id);
    return parent ? { memory: parent, via: 'source_memory_id' } : null;
  }
  const [partOf] = await storage.associations.neighbours(memory.workspace_id, [memory.id], {
    direction: 'outgoing',
    relationships: ['part_of'],
    limit: 1,
  });
  if (!partOf) return null;
  const parent = await storage.memories.get(memory.workspace_id, partOf.target_id);
  return parent ? { memory: parent, via: 'part_of' } : null;
}

function categoryCounts(edges: readonly Association[]): TraceResult['categories'] {
  const byCategory = new Map<string, Record<string, number>>();
  for (const edge of edges) {
    const category = categoryOf(edge.relationship) ?? 'other';
    const counts = byCategory.get(category) ?? {};
    counts[edge.relationship] = (counts[edge.relationship] ?? 0) + 1;
    byCategory.set(category, counts);
  }
  return [...byCategory.entries()]
    .map(([category, relationships]) => ({
      category,
      count: Object.values(relationships).reduce((a, b) => a + b, 0),
      relationships,
    }))
    .sort((a, b) => b.count - a.count || a.category.localeCompare(b.category));
}

import { FACT_SCOPE, type Association, type Memory, type NewMemory } from '../../storage/types.js';
import { newId } from '../ids.js';
import { normaliseContent, splitSentences, words } from '../text/index.js';
import { buildMemory } from './records.js';

const MIN_CONTENT_CHARS = 80;
const MIN_FACT_WORDS = 3;
/**
 * Facts made of one memory at most. A memory at the content limit (200,000 characters) can hold 20,000 short
 * sentences, each a fact to embed, index and link: enriching six such memories took 22 s on PostgreSQL in
 * test/api/hostile-text.test.ts. 500 sentences are about 50,000 characters of prose; the sentences after them are
 * still found through their memory.
 */
export const MAX_FACTS_PER_MEMORY = 500;

/**
 * The atomic facts of a memory: its distinct sentences (the first `MAX_FACTS_PER_MEMORY`), when it has at least two
 * and is long enough to be worth it.
 * Working memories are transient and derived memories are already atomic, so neither is decomposed.
 */
export function factSentences(memory: Memory): string[] {
  if (memory.type === 'working' || memory.source_memory_id !== null || memory.content.length < MIN_CONTENT_CHARS)
    return [];
  const sentences: string[] = [];
  const seen = new Set<string>();
  for (const sentence of splitSentences(memory.content)) {
    if (sentences.length === MAX_FACTS_PER_MEMORY) break;
    if (words(sentence).length < MIN_FACT_WORDS) continue;
    // A sentence said twice is one fact: copies would only crowd the fact arm with the same parent.
    const said = normaliseContent(sentence).toLowerCase();
    if (seen.has(said)) continue;
    seen.add(said);
    sentences.push(sentence);
  }
  return sentences.length >= 2 ? sentences : [];
}

/** Fact records for a parent, each inheriting its scope, attribution, tags and metadata, and its `part_of` edge. */
export function buildFacts(
  parent: Memory,
  sentences: readonly string[],
  embeddings: readonly Float32Array[],
  now: string,
): { facts: NewMemory[]; edges: Association[] } {
  const facts = sentences.map((content, i) =>
    buildMemory(
      { workspaceId: parent.workspace_id, tenantId: parent.tenant_id },
      newId('mem'),
      {
        content,
        type: parent.type,
        subtype: null,
        importance: parent.importance,
        tags: parent.tags,
        metadata: { ...parent.metadata, fact_index: i },
        context_id: parent.context_id,
        observer_id: parent.observer_id ?? undefined,
        subject_id: parent.subject_id ?? undefined,
        user_id: parent.user_id ?? undefined,
        session_id: parent.session_id ?? undefined,
        source_memory_id: parent.id,
        source_scope: FACT_SCOPE,
      },
      embeddings[i]!,
      now,
    ),
  );
  const edges = facts.map((fact) => ({
    id: newId('assoc'),
    workspace_id: parent.workspace_id,
    source_id: fact.id,
    target_id: parent.id,
    relationship: 'part_of',
    strength: 1,
    metadata: { auto_generated: true, decomposition: true },
    created_at: now,
  }));
  return { facts, edges };
}

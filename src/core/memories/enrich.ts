import type { Logger } from '../logger.js';
import type { EmbeddingProvider } from '../../providers/embedding/types.js';
import type { LlmProvider } from '../../providers/llm/types.js';
import type { Memory, Storage, Task } from '../../storage/types.js';
import { isoNow, type Clock } from '../clock.js';
import type { CoreEvents } from '../events.js';
import { AUTO_ASSOCIATE_LIMIT, AUTO_ASSOCIATE_MIN_SIMILARITY, chooseRelationship } from '../graph/auto-associate.js';
import { newId } from '../ids.js';
import { noTelemetry, type Telemetry } from '../telemetry.js';
import { normaliseContent } from '../text/index.js';
import { buildFacts, factSentences } from './decompose.js';
import { refineWithLlm } from './llm-refine.js';
import type { EnrichPayload } from './service.js';

/** One idempotent step of the work that follows a memory write; later features add their own. */
export type EnrichStep = (memory: Memory, embedding: Float32Array) => Promise<void>;

interface EnrichDeps {
  storage: Storage;
  embedder: EmbeddingProvider;
  llm: LlmProvider | null;
  clock: Clock;
  events: CoreEvents;
  log: Logger;
  /** Traces each step; nothing by default. */
  telemetry?: Telemetry;
}

/**
 * The background half of the write pipeline: LLM classification and tiers (when configured), atomic facts,
 * automatic links. Every step checks what is already done, so a re-run after a crash repeats nothing.
 */
export class MemoryEnricher {
  private readonly extraSteps: Array<{ name: string; step: EnrichStep }> = [];
  private readonly telemetry: Telemetry;

  constructor(private readonly deps: EnrichDeps) {
    this.telemetry = deps.telemetry ?? noTelemetry;
  }

  /** Adds a step that runs after the built-in ones (e.g. contradiction detection); `name` names its span. */
  addStep(name: string, step: EnrichStep): void {
    this.extraSteps.push({ name, step });
  }

  readonly handle = async (task: Task): Promise<void> => {
    const payload = task.payload as unknown as EnrichPayload;
    const workspaceId = task.workspaceId!;
    const { storage } = this.deps;
    const stored = await storage.memories.get(workspaceId, payload.memory_id);
    if (!stored || stored.status === 'deleted') return;
    const embedding = (await storage.memories.getEmbeddings(workspaceId, [stored.id])).get(stored.id);
    if (!embedding) return;
    const { llm, log } = this.deps;
    const step = <T>(name: string, work: () => Promise<T>) => this.telemetry.span(`memory.enrich.${name}`, work);
    const memory = llm
      ? await step('refine', () => refineWithLlm(llm, storage, stored, payload.auto_classified, log))
      : stored;
    await step('decompose', () => this.decompose(memory));
    await step('associate', () => this.associate(memory, embedding));
    for (const extra of this.extraSteps) await step(extra.name, () => extra.step(memory, embedding));
    await this.deps.events.memoriesChanged(workspaceId);
  };

  private async decompose(memory: Memory): Promise<void> {
    const { storage, embedder, clock } = this.deps;
    const sentences = factSentences(memory);
    if (sentences.length === 0) return;
    const already = await storage.memories.count(memory.workspace_id, {
      sourceMemoryId: memory.id,
      statuses: ['active', 'archived'],
    });
    if (already > 0) return;
    const embeddings = await embedder.embed(sentences.map(normaliseContent));
    const { facts, edges } = buildFacts(memory, sentences, embeddings, isoNow(clock));
    await storage.transaction(async (tx) => {
      await tx.memories.insert(facts);
      for (const edge of edges) await tx.associations.upsert(edge);
    });
  }

  private async associate(memory: Memory, embedding: Float32Array): Promise<void> {
    const { storage, clock } = this.deps;
    if (memory.source_memory_id !== null) return;
    const neighbours = await storage.memories.vectorSearch(memory.workspace_id, embedding, {
      k: AUTO_ASSOCIATE_LIMIT,
      filter: { derived: false, excludeIds: [memory.id] },
    });
    const similar = neighbours.filter((n) => n.score >= AUTO_ASSOCIATE_MIN_SIMILARITY);
    if (similar.length === 0) return;
    const others = new Map(
      (
        await storage.memories.getMany(
          memory.workspace_id,
          similar.map((n) => n.id),
        )
      ).map((m) => [m.id, m]),
    );
    const now = isoNow(clock);
    // One transaction for all links: one commit instead of one per edge.
    await storage.transaction(async (tx) => {
      for (const { id, score } of similar) {
        const other = others.get(id);
        if (!other) continue;
        const similarity = Math.round(score * 1e4) / 1e4;
        await tx.associations.upsert({
          id: newId('assoc'),
          workspace_id: memory.workspace_id,
          source_id: memory.id,
          target_id: id,
          relationship: chooseRelationship(memory, other, score),
          strength: similarity,
          metadata: { auto_generated: true, similarity_score: similarity },
          created_at: now,
        });
      }
    });
  }
}

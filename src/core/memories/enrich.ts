import type { Logger } from '../logger.js';
import type { EmbeddingProvider } from '../../providers/embedding/types.js';
import type { LlmProvider } from '../../providers/llm/types.js';
import type { Association, Memory, NewMemory, Storage, Task, VectorHit } from '../../storage/types.js';
import type { GiveWay } from '../../tasks/foreground.js';
import { isoNow, type Clock } from '../clock.js';
import type { CoreEvents } from '../events.js';
import { AUTO_ASSOCIATE_LIMIT, AUTO_ASSOCIATE_MIN_SIMILARITY, chooseRelationship } from '../graph/auto-associate.js';
import { newId } from '../ids.js';
import { noTelemetry, type Telemetry } from '../telemetry.js';
import { normaliseContent } from '../text/index.js';
import { buildFacts, factSentences } from './decompose.js';
import { refineWithLlm } from './llm-refine.js';
import type { EnrichPayload } from './service.js';

/** A memory being enriched, with what its batch read once for every step. */
export interface EnrichTarget {
  memory: Memory;
  embedding: Float32Array;
  /**
   * Its nearest stated memories (not derived, not itself), most similar first, as many as the steps asked for, of
   * those at least as similar as the least any step asked for (fewer when fewer are). Empty for a derived memory
   * (a fact, an insight): no step links or checks those.
   */
  neighbours: VectorHit[];
}

/**
 * One idempotent step of the work that follows memory writes, run over a batch of memories of one workspace; later
 * features add their own. Its result must not depend on how the memories were batched.
 */
export type EnrichStep = (targets: readonly EnrichTarget[]) => Promise<void>;

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
 * automatic links, and the steps features add (contradiction checks). It runs over a batch of tasks at once: one
 * read of their memories and embeddings, one neighbour search for all of them shared by every step, one embedding
 * call for all their facts, one commit for their facts and links. Every step checks what is already done, so a
 * re-run after a crash repeats nothing; and since the steps only add derived memories (which no neighbour search
 * returns) and edges, the result is the same however the tasks were batched.
 */
export class MemoryEnricher {
  private readonly extraSteps: Array<{ name: string; step: EnrichStep }> = [];
  private neighbourCount = AUTO_ASSOCIATE_LIMIT;
  /** The least similarity any step looks at; undefined: a step wants neighbours however dissimilar. */
  private neighbourFloor: number | undefined = AUTO_ASSOCIATE_MIN_SIMILARITY;
  private readonly telemetry: Telemetry;

  constructor(private readonly deps: EnrichDeps) {
    this.telemetry = deps.telemetry ?? noTelemetry;
  }

  /**
   * Adds a step that runs after the built-in ones (e.g. contradiction detection); `name` names its span,
   * `neighbours` is how many nearest memories it needs in each target's `neighbours`, and `minSimilarity` the least
   * similarity of any it looks at (without it, it is given them however dissimilar).
   */
  addStep(name: string, step: EnrichStep, options: { neighbours?: number; minSimilarity?: number } = {}): void {
    this.extraSteps.push({ name, step });
    if (options.neighbours === undefined) return;
    this.neighbourCount = Math.max(this.neighbourCount, options.neighbours);
    this.neighbourFloor =
      options.minSimilarity === undefined || this.neighbourFloor === undefined
        ? undefined
        : Math.min(this.neighbourFloor, options.minSimilarity);
  }

  /**
   * `giveWay` is awaited between steps (the task runner waits while a client request is in flight). Each step is a
   * few milliseconds at most at a million memories; the whole batch more.
   */
  readonly handleMany = async (tasks: readonly Task[], giveWay: GiveWay): Promise<void> => {
    const byWorkspace = new Map<string, EnrichPayload[]>();
    for (const task of tasks) {
      const list = byWorkspace.get(task.workspaceId!) ?? [];
      list.push(task.payload as unknown as EnrichPayload);
      byWorkspace.set(task.workspaceId!, list);
    }
    for (const [workspaceId, payloads] of byWorkspace) await this.enrich(workspaceId, payloads, giveWay);
  };

  private async enrich(workspaceId: string, payloads: readonly EnrichPayload[], giveWay: GiveWay): Promise<void> {
    const { storage, llm, log } = this.deps;
    const step = async <T>(name: string, work: () => Promise<T>) => {
      await giveWay();
      return this.telemetry.span(`memory.enrich.${name}`, work, { 'memd.enrich.batch': payloads.length });
    };
    const ids = [...new Set(payloads.map((p) => p.memory_id))];
    const [found, embeddings] = await Promise.all([
      storage.memories.getMany(workspaceId, ids),
      storage.memories.getEmbeddings(workspaceId, ids),
    ]);
    const stored = found.filter((m) => m.status !== 'deleted' && embeddings.has(m.id));
    if (stored.length === 0) return;
    const autoClassified = new Map(payloads.map((p) => [p.memory_id, p.auto_classified]));
    const memories: Memory[] = [];
    for (const memory of stored) {
      memories.push(
        llm
          ? await step('refine', () => refineWithLlm(llm, storage, memory, autoClassified.get(memory.id)!, log))
          : memory,
      );
    }
    const targets = await step('neighbours', () => this.neighbours(workspaceId, memories, embeddings));
    const facts = await step('decompose', () => this.decompose(memories));
    const links = await step('associate', () => this.associate(workspaceId, targets));
    // One commit for the facts (with their part_of edges) and the links of the whole batch.
    await step('write', () =>
      storage.transaction(async (tx) => {
        const current = await factsOfCurrentText(tx, workspaceId, facts, memories);
        if (current.facts.length > 0) await tx.memories.insert(current.facts);
        await tx.associations.upsertMany([...current.edges, ...links]);
      }),
    );
    for (const extra of this.extraSteps) await step(extra.name, () => extra.step(targets));
    await giveWay();
    await this.deps.events.memoriesChanged(workspaceId);
  }

  /** Every stated memory's nearest stated neighbours, from one search for the whole batch. */
  private async neighbours(
    workspaceId: string,
    memories: readonly Memory[],
    embeddings: ReadonlyMap<string, Float32Array>,
  ): Promise<EnrichTarget[]> {
    const stated = memories.filter((m) => m.source_memory_id === null);
    // One more than wanted, itself left out afterwards: a filter excluding each one's own id would need a search each.
    // Every step ignores neighbours under its similarity floor, so the search says so (`minScore`) and approximate
    // indexes search it with their narrower beam (`nearNeighbourBeam`: what it finds and saves is measured there).
    const found = await this.deps.storage.memories.vectorSearchMany(
      workspaceId,
      stated.map((m) => embeddings.get(m.id)!),
      { k: this.neighbourCount + 1, filter: { derived: false }, minScore: this.neighbourFloor },
    );
    const byId = new Map(
      stated.map((m, i) => [m.id, found[i]!.filter((n) => n.id !== m.id).slice(0, this.neighbourCount)]),
    );
    return memories.map((memory) => ({
      memory,
      embedding: embeddings.get(memory.id)!,
      neighbours: byId.get(memory.id) ?? [],
    }));
  }

  /** The atomic facts of the memories not decomposed yet, embedded in one call. */
  private async decompose(memories: readonly Memory[]): Promise<{ facts: NewMemory[]; edges: Association[] }> {
    const { storage, embedder, clock } = this.deps;
    const split = memories.flatMap((memory) => {
      const sentences = factSentences(memory);
      return sentences.length > 0 ? [{ memory, sentences }] : [];
    });
    if (split.length === 0) return { facts: [], edges: [] };
    // A batch is of one workspace (handleMany groups by it); decomposed before means a re-run after a crash.
    const decomposed = await storage.memories.sourcesOfDerived(
      split[0]!.memory.workspace_id,
      split.map(({ memory }) => memory.id),
      ['active', 'archived'],
    );
    const pending = split.filter(({ memory }) => !decomposed.has(memory.id));
    if (pending.length === 0) return { facts: [], edges: [] };
    const vectors = await embedder.embed(pending.flatMap((p) => p.sentences.map(normaliseContent)));
    const now = isoNow(clock);
    const built = { facts: [] as NewMemory[], edges: [] as Association[] };
    let at = 0;
    for (const { memory, sentences } of pending) {
      const { facts, edges } = buildFacts(memory, sentences, vectors.slice(at, at + sentences.length), now);
      at += sentences.length;
      built.facts.push(...facts);
      built.edges.push(...edges);
    }
    return built;
  }

  /** Links from each stated memory to its most similar stated memories, read in one lookup. */
  private async associate(workspaceId: string, targets: readonly EnrichTarget[]): Promise<Association[]> {
    const { storage, clock } = this.deps;
    const similar = targets.map(({ memory, neighbours }) => ({
      memory,
      close: neighbours.slice(0, AUTO_ASSOCIATE_LIMIT).filter((n) => n.score >= AUTO_ASSOCIATE_MIN_SIMILARITY),
    }));
    const otherIds = [...new Set(similar.flatMap(({ close }) => close.map((n) => n.id)))];
    if (otherIds.length === 0) return [];
    const others = new Map((await storage.memories.getMany(workspaceId, otherIds)).map((m) => [m.id, m]));
    const now = isoNow(clock);
    return similar.flatMap(({ memory, close }) =>
      close.flatMap(({ id, score }) => {
        const other = others.get(id);
        if (!other) return [];
        const similarity = Math.round(score * 1e4) / 1e4;
        return [
          {
            id: newId('assoc'),
            workspace_id: workspaceId,
            source_id: memory.id,
            target_id: id,
            relationship: chooseRelationship(memory, other, score),
            strength: similarity,
            metadata: { auto_generated: true, similarity_score: similarity },
            created_at: now,
          },
        ];
      }),
    );
  }
}

/**
 * The facts of a batch that still belong: their parent, read again and held until the commit, still holds the text
 * they were taken from and has no facts yet. Between the batch's first read and its commit another node may have
 * changed the text (its facts then come from the run queued with the change), or a run that took this batch over
 * after its lease ran out may have decomposed it already (an audit of several nodes saw both: facts of an old text,
 * and every fact twice).
 */
async function factsOfCurrentText(
  tx: Storage,
  workspaceId: string,
  built: { facts: NewMemory[]; edges: Association[] },
  read: readonly Memory[],
): Promise<{ facts: NewMemory[]; edges: Association[] }> {
  if (built.facts.length === 0) return built;
  const parents = [...new Set(built.facts.map((f) => f.source_memory_id!))];
  const [current, decomposed] = await Promise.all([
    tx.memories.getForChange(workspaceId, parents),
    tx.memories.sourcesOfDerived(workspaceId, parents, ['active', 'archived']),
  ]);
  const textRead = new Map(read.map((m) => [m.id, m.content]));
  const keep = new Set(
    current
      .filter((m) => m.status !== 'deleted' && m.content === textRead.get(m.id) && !decomposed.has(m.id))
      .map((m) => m.id),
  );
  const facts = built.facts.filter((f) => keep.has(f.source_memory_id!));
  const kept = new Set(facts.map((f) => f.id));
  return { facts, edges: built.edges.filter((e) => kept.has(e.source_id)) };
}

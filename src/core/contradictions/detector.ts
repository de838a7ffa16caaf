import type { Logger } from '../logger.js';
import type { LlmProvider } from '../../providers/llm/types.js';
import type { Contradiction, Memory, Storage, VectorHit } from '../../storage/types.js';
import { isoNow, type Clock } from '../clock.js';
import { newId } from '../ids.js';
import { cosine } from '../../providers/embedding/vector.js';
import { judgeWithLlm } from './judge.js';
import { conflictSignals, SLOT_SIMILARITY, type ConflictKind, type ConflictSignal } from './signals.js';
import { extractSlots, valuesDisagree } from './slots.js';

/** Neighbours of a new memory checked for a conflict. */
export const CONTRADICTION_NEIGHBOURS = 8;
/** The least similar neighbour checked: no signal counts between statements less similar than a strong slot's. */
export const CONTRADICTION_MIN_SIMILARITY = SLOT_SIMILARITY;
/** Without a rule signal, a pair this similar still goes to the language model judge (when one is configured). */
const LLM_REVIEW_SIMILARITY = 0.8;
/** Language-model calls per memory checked, most similar pairs first. */
const LLM_CALLS_PER_MEMORY = 3;
/** Memories per attribute group compared pairwise by a scan. */
const SLOT_GROUP_LIMIT = 50;
/** The most specific kind names the contradiction when several signals agree. */
const TYPE_PRIORITY: ConflictKind[] = ['date_change', 'number_change', 'exclusive_value', 'negation', 'stated_change'];

export interface Verdict {
  type: string;
  confidence: number;
  method: 'rules' | 'llm';
  explanation: string;
}

interface DetectorDeps {
  storage: Storage;
  llm: LlmProvider | null;
  clock: Clock;
  log: Logger;
}

/** A pair judged contradictory, waiting to be recorded. */
interface Finding {
  memory: Memory;
  other: Memory;
  verdict: Verdict;
}

/** Stated memories only: derived ones (facts repeat their parent, insights aggregate others) are not checked. */
const checkable = (m: Memory): boolean => m.status === 'active' && m.source_memory_id === null;

/** The speaker speaks of themselves: "I live in Utrecht", "My manager is Priya", "I'm vegetarian". */
const FIRST_PERSON = /(?<![\p{L}\p{N}])(?:I|[Mm]e|[Mm]y|[Mm]yself)(?![\p{L}\p{N}])/u;
const inFirstPerson = (m: Memory): boolean => FIRST_PERSON.test(m.content);

/** Two values both set and not the same: two customers, two users. */
const twoOf = (a: string | null, b: string | null): boolean => a !== null && b !== null && a !== b;

/**
 * Whether two memories can say different things of one thing. Not when they are about two subjects (`subject_id`:
 * "The customer lives in Lisbon" of one customer, "… in Berlin" of another), nor when two users each speak of
 * themselves (`user_id`, either in the first person singular: Kim's "I live in Utrecht", Tom's "I live in
 * Rotterdam"), both recorded as contradictions in a team's workspace before (2026-12-05). Two users still contradict
 * each other about what they share ("The release is on May 3" / "The release is on June 10").
 */
const aboutOneThing = (a: Memory, b: Memory): boolean =>
  !twoOf(a.subject_id, b.subject_id) && !(twoOf(a.user_id, b.user_id) && (inFirstPerson(a) || inFirstPerson(b)));

const round2 = (x: number): number => Math.round(x * 100) / 100;

/**
 * Rule verdict: confidence = strongest signal x (0.6 + 0.4 x similarity), so a strong signal between barely
 * related statements still scores lower than the same signal between near-identical ones.
 */
function ruleVerdict(signals: readonly ConflictSignal[], similarity: number): Verdict | null {
  if (signals.length === 0) return null;
  const type = TYPE_PRIORITY.find((kind) => signals.some((s) => s.kind === kind))!;
  const strength = Math.max(...signals.map((s) => s.strength));
  const clamped = Math.min(1, Math.max(0, similarity));
  return {
    type,
    confidence: round2(Math.min(0.99, strength * (0.6 + 0.4 * clamped))),
    method: 'rules',
    explanation: signals.map((s) => s.detail).join('; '),
  };
}

/**
 * Contradiction detection: similar memories (cosine) that carry a signal of conflict (negation, changed number or
 * date, an exclusive value), confirmed or overruled by the language model when one is configured. Each pair is
 * recorded once, with a `contradicts` edge from the later memory to the earlier one.
 */
export class ContradictionDetector {
  constructor(private readonly deps: DetectorDeps) {}

  /**
   * The enrichment step run after writes, over a batch of memories with their nearest neighbours: one lookup of the
   * neighbours, one commit for what is found. A pair is checked once, by the memory written last: the other's step
   * ran before it existed (or skips it), so a language model judges each pair once.
   */
  readonly onWrite = async (
    targets: ReadonlyArray<{ memory: Memory; neighbours: readonly VectorHit[] }>,
  ): Promise<void> => {
    // Only a memory changed since its first write can have a pair recorded against an older text of it: new memories
    // (most of a batch) cost no lookup.
    const changed = targets.map(({ memory }) => memory).filter((memory) => memory.updated_at > memory.created_at);
    if (changed.length > 0) await this.settleCorrected(changed[0]!.workspace_id, changed);
    const checked = targets.flatMap(({ memory, neighbours }) =>
      checkable(memory) ? [{ memory, neighbours: this.similarEnough(neighbours) }] : [],
    );
    const otherIds = [...new Set(checked.flatMap(({ neighbours }) => neighbours.map((n) => n.id)))];
    if (otherIds.length === 0) return;
    const others = await this.read(checked[0]!.memory.workspace_id, otherIds);
    const found: Finding[] = [];
    for (const { memory, neighbours } of checked)
      found.push(...(await this.judge(memory, neighbours, others, 'written-before')));
    await this.record(found);
  };

  /**
   * The rules' unresolved contradictions of these memories, judged again on the texts as they are now: a memory the
   * agent corrected ("The office was in Berlin until 2024." of "The office is in Berlin.", through `PUT` or
   * update_memory) no longer contradicts the other, and the pair was left open: the briefing kept reporting it and
   * recall kept answering the other first. Such a pair is settled as `keep_both` (both memories stay, as a user's
   * keep_both leaves them). A language model's verdict is left to the user: the rules cannot say it no longer holds.
   */
  private async settleCorrected(workspaceId: string, memories: readonly Memory[]): Promise<void> {
    const { storage, clock } = this.deps;
    const open = (
      await storage.contradictions.unresolvedOf(
        workspaceId,
        memories.map((m) => m.id),
      )
    ).filter((c) => c.detection_method === 'rules');
    if (open.length === 0) return;
    const texts = await this.read(workspaceId, [...new Set(open.flatMap((c) => [c.memory_a_id, c.memory_b_id]))]);
    for (const contradiction of open) {
      const [a, b] = [texts.get(contradiction.memory_a_id), texts.get(contradiction.memory_b_id)];
      if (!a || !b || conflictSignals(a.content, b.content).length > 0) continue;
      await storage.contradictions.claimResolution(workspaceId, contradiction.id, 'keep_both', isoNow(clock));
    }
  }

  /** Checks the memory against its nearest neighbours (all, or those written before it); returns the contradictions newly recorded. */
  async checkNeighbours(
    memory: Memory,
    embedding: Float32Array,
    neighbourhood: 'all' | 'written-before',
  ): Promise<Contradiction[]> {
    const neighbours = this.similarEnough(
      await this.deps.storage.memories.vectorSearch(memory.workspace_id, embedding, {
        k: CONTRADICTION_NEIGHBOURS,
        filter: { derived: false, excludeIds: [memory.id] },
      }),
    );
    if (neighbours.length === 0) return [];
    const others = await this.read(
      memory.workspace_id,
      neighbours.map((n) => n.id),
    );
    return this.record(await this.judge(memory, neighbours, others, neighbourhood));
  }

  private similarEnough(neighbours: readonly VectorHit[]): VectorHit[] {
    return neighbours.slice(0, CONTRADICTION_NEIGHBOURS).filter((n) => n.score >= CONTRADICTION_MIN_SIMILARITY);
  }

  private async read(workspaceId: string, ids: readonly string[]): Promise<Map<string, Memory>> {
    return new Map((await this.deps.storage.memories.getMany(workspaceId, ids)).map((m) => [m.id, m]));
  }

  /** The memory's contradictions among its neighbours (already read into `others`), judged but not recorded. */
  private async judge(
    memory: Memory,
    neighbours: readonly VectorHit[],
    others: ReadonlyMap<string, Memory>,
    neighbourhood: 'all' | 'written-before',
  ): Promise<Finding[]> {
    const found: Finding[] = [];
    let llmCalls = 0;
    for (const { id, score } of neighbours) {
      const other = others.get(id);
      if (
        !other ||
        !checkable(other) ||
        !aboutOneThing(memory, other) ||
        (neighbourhood === 'written-before' && !writtenBefore(other, memory))
      )
        continue;
      const [earlier, later] = ordered(memory, other);
      const signals = conflictSignals(earlier.content, later.content).filter((s) => score >= s.minSimilarity);
      const reviewed =
        this.deps.llm !== null &&
        llmCalls < LLM_CALLS_PER_MEMORY &&
        (signals.length > 0 || score >= LLM_REVIEW_SIMILARITY);
      if (reviewed) llmCalls++;
      const verdict = await this.decide(memory, other, signals, score, reviewed);
      if (verdict) found.push({ memory, other, verdict });
    }
    return found;
  }

  /**
   * A scan's extra pass: memories that give the same attribute of the same subject different values ("X lives in
   * Y"), compared across the batch whatever their similarity, since the attribute already ties them together.
   */
  async checkAttributes(
    memories: readonly Memory[],
    embeddings: ReadonlyMap<string, Float32Array>,
  ): Promise<Contradiction[]> {
    const groups = new Map<string, Array<{ memory: Memory; value: string }>>();
    for (const memory of memories.filter(checkable)) {
      for (const slot of extractSlots(memory.content)) {
        if (slot.strength !== 'strong') continue;
        const key = `${slot.subject}\u0000${slot.attribute}`;
        const group = groups.get(key) ?? [];
        if (group.length < SLOT_GROUP_LIMIT) groups.set(key, [...group, { memory, value: slot.value }]);
      }
    }
    const found: Finding[] = [];
    for (const group of groups.values()) {
      for (let i = 0; i < group.length; i++) {
        for (let j = i + 1; j < group.length; j++) {
          const [x, y] = [group[i]!, group[j]!];
          if (x.memory.id === y.memory.id || !valuesDisagree(x.value, y.value)) continue;
          if (!aboutOneThing(x.memory, y.memory)) continue;
          const [ex, ey] = [embeddings.get(x.memory.id), embeddings.get(y.memory.id)];
          const similarity = ex && ey ? cosine(ex, ey) : 0;
          const [earlier, later] = ordered(x.memory, y.memory);
          const signals = conflictSignals(earlier.content, later.content).filter(
            (s) => s.kind === 'exclusive_value' || similarity >= s.minSimilarity,
          );
          const verdict = await this.decide(x.memory, y.memory, signals, similarity, this.deps.llm !== null);
          if (verdict) found.push({ memory: x.memory, other: y.memory, verdict });
        }
      }
    }
    return this.record(found);
  }

  /** The rules' verdict, unless the language model reviewed the pair: then its answer stands (rules if it fails). */
  private async decide(
    memory: Memory,
    other: Memory,
    signals: readonly ConflictSignal[],
    similarity: number,
    reviewed: boolean,
  ): Promise<Verdict | null> {
    const rules = ruleVerdict(signals, similarity);
    const llm = this.deps.llm;
    if (!reviewed || !llm) return rules;
    const [earlier, later] = ordered(memory, other);
    try {
      const answer = await judgeWithLlm(llm, earlier.content, later.content);
      return answer.contradicts
        ? { type: answer.type, confidence: round2(answer.confidence), method: 'llm', explanation: answer.explanation }
        : null;
    } catch (error) {
      this.deps.log.warn(
        { err: error instanceof Error ? error.message : String(error) },
        'LLM contradiction judge failed; using rules',
      );
      return rules;
    }
  }

  /**
   * Records the pairs (earlier memory as `a`) and their graph edges in one transaction (one commit, however many
   * pairs); returns those not already known.
   */
  private async record(findings: readonly Finding[]): Promise<Contradiction[]> {
    if (findings.length === 0) return [];
    const now = isoNow(this.deps.clock);
    // In one order of pairs everywhere: two nodes recording overlapping pairs at once then wait for each other in
    // turn instead of deadlocking (which failed a whole batch of enrichment, to be run again).
    const pairKey = ({ memory, other }: Finding) =>
      ordered(memory, other)
        .map((m) => m.id)
        .join(' ');
    const inOrder = [...findings].sort((x, y) => (pairKey(x) < pairKey(y) ? -1 : pairKey(x) > pairKey(y) ? 1 : 0));
    return this.deps.storage.transaction(async (tx) => {
      const recorded = await tx.contradictions.insertMany(
        inOrder.map(({ memory, other, verdict }) => {
          const [a, b] = ordered(memory, other);
          return {
            id: newId('ctr'),
            workspace_id: memory.workspace_id,
            memory_a_id: a.id,
            memory_b_id: b.id,
            contradiction_type: verdict.type,
            confidence: verdict.confidence,
            detection_method: verdict.method,
            explanation: verdict.explanation || null,
            detected_at: now,
            resolved_at: null,
            resolution: null,
            merged_memory_id: null,
          };
        }),
      );
      await tx.associations.upsertMany(
        recorded.map((c) => ({
          id: newId('assoc'),
          workspace_id: c.workspace_id,
          source_id: c.memory_b_id,
          target_id: c.memory_a_id,
          relationship: 'contradicts',
          strength: c.confidence,
          metadata: { auto_generated: true, contradiction_id: c.id, detection_method: c.detection_method },
          created_at: now,
        })),
      );
      return recorded;
    });
  }
}

/** Whether `x` was last written before `y` (ties by id), so that of two memories exactly one is the later. */
const writtenBefore = (x: Memory, y: Memory): boolean =>
  x.updated_at < y.updated_at || (x.updated_at === y.updated_at && x.id < y.id);

/** Earlier first: by creation time, then id. */
const ordered = (x: Memory, y: Memory): [Memory, Memory] =>
  x.created_at < y.created_at || (x.created_at === y.created_at && x.id < y.id) ? [x, y] : [y, x];

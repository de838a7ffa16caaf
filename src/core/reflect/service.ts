import { completeJson } from '../../providers/llm/json.js';
import type { LlmProvider } from '../../providers/llm/types.js';
import { processQuery } from '../recall/query.js';
import type { RecallService } from '../recall/service.js';
import type { RecalledMemory, RecallRequest } from '../recall/types.js';
import type { Clock } from '../clock.js';
import { estimateTokens } from '../text/index.js';
import { extractiveReflection } from './extractive.js';
import { REFLECT_SYSTEM, reflectPrompt } from './prompt.js';

/** Reflect narrows recall with the same filters; its own knobs are `depth` and `includeSources`. */
export interface ReflectRequest
  extends Pick<
    RecallRequest,
    | 'query'
    | 'workspaceId'
    | 'detailLevel'
    | 'types'
    | 'subtypes'
    | 'tags'
    | 'contextId'
    | 'observerId'
    | 'subjectId'
    | 'scopeContextId'
  > {
  /** Default true. */
  includeSources?: boolean | undefined;
  /** 1-5: how far recall expands over associations, and how many memories it gathers (5 per level). Default 2. */
  depth?: number | undefined;
}

export const DEFAULT_REFLECT_DEPTH = 2;

export interface ReflectResult {
  reflection: string;
  source_memories: string[];
  confidence: number;
  tokens_processed: number;
  /** `llm`: synthesised by the configured model; `extractive`: quoted memories, no model configured. */
  synthesis: 'llm' | 'extractive';
  metadata: {
    /**
     * `cited`: the memories the answer rests on, as the model cited them (or the extract quoted them);
     * `all_given`: the model cited none, so every memory that went into the prompt; `none`: no memory was found.
     */
    sources: 'cited' | 'all_given' | 'none';
  };
}

export const MEMORIES_PER_DEPTH = 5;
const NOTHING_FOUND = 'No stored memories are relevant to this question, so there is nothing to reflect on.';

interface ModelAnswer {
  reflection: string;
  sources: number[];
  confidence: number;
}

function parseAnswer(value: unknown): ModelAnswer {
  const v = value as Record<string, unknown> | null;
  if (typeof v?.reflection !== 'string' || !v.reflection.trim())
    throw new Error('expected "reflection" to be non-empty text');
  const sources = Array.isArray(v.sources) ? v.sources.filter((n): n is number => Number.isInteger(n)) : [];
  const confidence =
    typeof v.confidence === 'number' && Number.isFinite(v.confidence) ? Math.min(1, Math.max(0, v.confidence)) : 0.5;
  return { reflection: v.reflection.trim(), sources, confidence };
}

const round = (x: number): number => Math.round(x * 1000) / 1000;

/** Reflect (docs/specification.md §1): recall, a prompt built from the memories, the language model, the answer with its sources. */
export class ReflectService {
  constructor(private readonly deps: { recall: RecallService; llm: LlmProvider | null; clock: Clock }) {}

  async reflect(request: ReflectRequest): Promise<ReflectResult> {
    const { llm } = this.deps;
    const depth = request.depth ?? DEFAULT_REFLECT_DEPTH;
    const recalled = await this.deps.recall.recall({
      query: request.query,
      workspaceId: request.workspaceId,
      types: request.types,
      subtypes: request.subtypes,
      tags: request.tags,
      contextId: request.contextId,
      observerId: request.observerId,
      subjectId: request.subjectId,
      scopeContextId: request.scopeContextId,
      detailLevel: request.detailLevel,
      limit: MEMORIES_PER_DEPTH * depth,
      traverseDepth: depth,
    });
    const memories = recalled.memories;
    const synthesis = llm ? 'llm' : 'extractive';
    if (memories.length === 0) {
      // Nothing to ground an answer in: asking a model would only invite an invented one.
      return {
        reflection: NOTHING_FOUND,
        source_memories: [],
        confidence: 0,
        tokens_processed: estimateTokens(request.query),
        synthesis,
        metadata: { sources: 'none' },
      };
    }
    const result = llm ? await this.synthesise(llm, request.query, memories) : this.extract(request.query, memories);
    // An answer always rests on something: a model that cited nothing answered from all it was given.
    const cited = result.source_memories.length > 0;
    const sources = cited ? result.source_memories : memories.map((m) => m.id);
    return {
      ...result,
      source_memories: request.includeSources === false ? [] : sources,
      synthesis,
      metadata: { sources: cited ? 'cited' : 'all_given' },
    };
  }

  private async synthesise(
    llm: LlmProvider,
    query: string,
    memories: readonly RecalledMemory[],
  ): Promise<Omit<ReflectResult, 'synthesis' | 'metadata'>> {
    const prompt = reflectPrompt(query, memories);
    const { value, inputTokens, outputTokens } = await completeJson(
      llm,
      { system: REFLECT_SYSTEM, messages: [{ role: 'user', content: prompt }], temperature: 0.2 },
      parseAnswer,
    );
    const sources = [
      ...new Set(value.sources.map((n) => memories[n - 1]?.id).filter((id): id is string => id !== undefined)),
    ];
    const tokens =
      (inputTokens ?? estimateTokens(REFLECT_SYSTEM + prompt)) + (outputTokens ?? estimateTokens(value.reflection));
    return {
      reflection: value.reflection,
      source_memories: sources,
      confidence: round(value.confidence),
      tokens_processed: tokens,
    };
  }

  private extract(query: string, memories: readonly RecalledMemory[]): Omit<ReflectResult, 'synthesis' | 'metadata'> {
    const { terms } = processQuery(query, this.deps.clock.now());
    const { reflection, used } = extractiveReflection(terms, memories);
    return {
      reflection,
      source_memories: used.map((m) => m.id),
      // How well the best quoted memory matches: an extract is only as good as what it quotes.
      confidence: round(used[0]?.relevance_score ?? 0),
      tokens_processed: used.reduce((total, m) => total + estimateTokens(m.content), estimateTokens(query)),
    };
  }
}

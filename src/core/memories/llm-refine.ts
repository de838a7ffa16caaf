import type { Logger } from '../logger.js';
import { completeJson } from '../../providers/llm/json.js';
import type { LlmProvider } from '../../providers/llm/types.js';
import type { Memory, MemoryType, Storage } from '../../storage/types.js';
import { ABSTRACT_MAX_CHARS, OVERVIEW_MAX_CHARS } from './tiers.js';
import { truncateAtWord } from '../text/index.js';
import { MEMORY_SUBTYPES, MEMORY_TYPES } from './vocabulary.js';

interface Refinement {
  type?: MemoryType;
  subtype?: string | null;
  abstract?: string;
  overview?: string;
}

const SYSTEM = [
  'You file memories for an AI agent. For the memory given, answer with a JSON object:',
  `"type": one of ${MEMORY_TYPES.join(', ')} (episodic: a specific event; semantic: a lasting fact; procedural: how to do something; working: current, short-lived state);`,
  `"subtype": one of ${MEMORY_SUBTYPES.join(', ')}, or null;`,
  `"abstract": one sentence of at most ${ABSTRACT_MAX_CHARS} characters; "overview": at most ${OVERVIEW_MAX_CHARS} characters.`,
  'Use only what the memory says.',
].join('\n');

function parseRefinement(value: unknown): Refinement {
  if (typeof value !== 'object' || value === null) throw new Error('expected a JSON object');
  const v = value as Record<string, unknown>;
  const refinement: Refinement = {};
  if (typeof v.type === 'string' && (MEMORY_TYPES as readonly string[]).includes(v.type))
    refinement.type = v.type as MemoryType;
  if (
    v.subtype === null ||
    (typeof v.subtype === 'string' && (MEMORY_SUBTYPES as readonly string[]).includes(v.subtype))
  )
    refinement.subtype = v.subtype as string | null;
  if (typeof v.abstract === 'string' && v.abstract.trim())
    refinement.abstract = truncateAtWord(v.abstract.trim(), ABSTRACT_MAX_CHARS);
  if (typeof v.overview === 'string' && v.overview.trim())
    refinement.overview = truncateAtWord(v.overview.trim(), OVERVIEW_MAX_CHARS);
  return refinement;
}

/**
 * Asks the configured model for better tiers, and for the type when rules chose it. A model failure leaves the
 * rule-based values in place: enrichment must not fail a memory that is already stored and searchable.
 */
export async function refineWithLlm(
  llm: LlmProvider,
  storage: Storage,
  memory: Memory,
  autoClassified: boolean,
  log: Logger,
): Promise<Memory> {
  try {
    const { value } = await completeJson(
      llm,
      { system: SYSTEM, messages: [{ role: 'user', content: memory.content }], json: true, temperature: 0 },
      parseRefinement,
    );
    const patch = autoClassified ? value : { abstract: value.abstract, overview: value.overview };
    const updated = await storage.memories.update(memory.workspace_id, memory.id, patch);
    return updated ?? memory;
  } catch (error) {
    log.warn(
      { memory: memory.id, err: error instanceof Error ? error.message : String(error) },
      'LLM refinement skipped',
    );
    return memory;
  }
}

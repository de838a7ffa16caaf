import { completeJson } from '../../providers/llm/json.js';
import type { LlmProvider } from '../../providers/llm/types.js';
import type { Memory } from '../../storage/types.js';
import { categoryOfMemory, type ExtractionCategory } from '../extraction/categories.js';
import { textAtDetailLevel } from '../memories/tiers.js';
import { words } from '../text/index.js';
import { contentWords } from '../text/stopwords.js';

/** An insight about a subject before it is stored; `key` names the aspect, so a re-derivation updates it. */
export interface ProposedInsight {
  key: string;
  content: string;
  importance: number;
}

const ITEMS_PER_INSIGHT = 5;
const FREQUENT_TERMS = 5;
const MAX_LLM_INSIGHTS = 8;
/** Sources shown to the model, most important first. */
const MAX_LLM_SOURCES = 60;

const CATEGORY_LABEL: Record<ExtractionCategory, string> = {
  profile: 'profile',
  preferences: 'preference',
  entities: 'fact',
  events: 'event',
  cases: 'problem-and-solution',
  patterns: 'procedure',
};

/** Most important first; among equals, in the order they were written. */
const byImportance = (a: Memory, b: Memory): number =>
  b.importance - a.importance || a.created_at.localeCompare(b.created_at);
const mean = (xs: readonly number[]): number => Math.round((xs.reduce((a, b) => a + b, 0) / xs.length) * 100) / 100;
const clause = (m: Memory): string => textAtDetailLevel(m, 'abstract').replace(/[.!?…]+$/, '');
const memoriesWord = (n: number): string => (n === 1 ? 'memory' : 'memories');

/**
 * Insights without a language model: one aggregation per category of memory about the subject (its most important
 * statements) and an overview (how many, over what time, which terms recur). Each says it is rule-based.
 */
export function ruleInsights(
  subjectId: string,
  observerId: string | undefined,
  sources: readonly Memory[],
): ProposedInsight[] {
  // Each perspective says whose it is; the same words would otherwise make two perspectives share one memory.
  const about = observerId === undefined ? subjectId : `${subjectId} as observed by ${observerId}`;
  const byCategory = new Map<ExtractionCategory, Memory[]>();
  for (const memory of sources) {
    const category = categoryOfMemory(memory);
    byCategory.set(category, [...(byCategory.get(category) ?? []), memory]);
  }
  const insights: ProposedInsight[] = [...byCategory].map(([category, members]) => {
    const top = [...members].sort(byImportance).slice(0, ITEMS_PER_INSIGHT);
    return {
      key: category,
      content: `Rule-based aggregation (no language model) of ${members.length} ${CATEGORY_LABEL[category]} ${memoriesWord(members.length)} about ${about}: ${top.map(clause).join('; ')}.`,
      importance: mean(members.map((m) => m.importance)),
    };
  });

  const subjectWords = new Set(words(subjectId));
  const counts = new Map<string, number>();
  for (const m of sources)
    for (const w of new Set(contentWords(words(m.content))))
      if (!subjectWords.has(w) && w.length > 2) counts.set(w, (counts.get(w) ?? 0) + 1);
  const terms = [...counts]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, FREQUENT_TERMS)
    .map(([w]) => w);
  const dates = sources.map((m) => m.created_at.slice(0, 10)).sort();
  const [mainCategory, mainMembers] = [...byCategory].sort((a, b) => b[1].length - a[1].length)[0]!;
  insights.push({
    key: 'overview',
    content:
      `Rule-based overview (no language model): ${sources.length} ${memoriesWord(sources.length)} about ${about} from ${dates[0]} to ${dates[dates.length - 1]}, ` +
      `mostly ${CATEGORY_LABEL[mainCategory]} (${mainMembers.length}); frequent terms: ${terms.join(', ') || 'none'}.`,
    importance: mean(sources.map((m) => m.importance)),
  });
  return insights;
}

function parseInsights(value: unknown): ProposedInsight[] {
  const list = (value as { insights?: unknown })?.insights;
  if (!Array.isArray(list)) throw new Error('expected {"insights": [...]}');
  return list.slice(0, MAX_LLM_INSIGHTS).flatMap((raw): ProposedInsight[] => {
    const item = raw as Record<string, unknown>;
    const key =
      typeof item.key === 'string'
        ? item.key
            .trim()
            .toLowerCase()
            .replace(/[^a-z0-9]+/g, '_')
            .replace(/^_|_$/g, '')
        : '';
    const content = typeof item.content === 'string' ? item.content.trim() : '';
    const importance =
      typeof item.importance === 'number' && Number.isFinite(item.importance)
        ? Math.min(1, Math.max(0, item.importance))
        : 0.6;
    return key && content ? [{ key, content, importance }] : [];
  });
}

/** Insights from the language model; existing keys are offered so that it updates an aspect rather than adding a twin. */
export async function llmInsights(
  llm: LlmProvider,
  subjectId: string,
  sources: readonly Memory[],
  existingKeys: readonly string[],
): Promise<ProposedInsight[]> {
  const shown = [...sources].sort(byImportance).slice(0, MAX_LLM_SOURCES);
  const system = [
    `You derive insights about "${subjectId}" from an AI agent's memories about them: lasting traits, preferences, patterns and situations that follow from several memories.`,
    `Answer with a JSON object {"insights": [{"key": short snake_case name of the aspect, "content": one or two sentences, "importance": 0.0-1.0}]}, at most ${MAX_LLM_INSIGHTS} items.`,
    existingKeys.length > 0
      ? `Existing insight keys (reuse one when your insight is about the same aspect): ${existingKeys.join(', ')}.`
      : '',
    'Use only what the memories support.',
  ].join('\n');
  const { value } = await completeJson(
    llm,
    { system, messages: [{ role: 'user', content: shown.map((m) => `- ${m.content}`).join('\n') }], temperature: 0 },
    parseInsights,
  );
  return value;
}

export interface Reflection {
  reflection: string;
  confidence: number;
}

/** Rule-based confidence grows with evidence: 0.3 + 0.06 per source memory, at most 0.9. */
export function ruleReflection(subjectId: string, sources: readonly Memory[]): Reflection {
  const top = [...sources].sort(byImportance).slice(0, ITEMS_PER_INSIGHT);
  return {
    reflection: `Rule-based reflection (no language model) from ${sources.length} ${memoriesWord(sources.length)} about ${subjectId}; the most important: ${top.map(clause).join('; ')}.`,
    confidence: Math.round(Math.min(0.9, 0.3 + 0.06 * sources.length) * 100) / 100,
  };
}

function parseReflection(value: unknown): Reflection {
  const v = value as Record<string, unknown>;
  if (typeof v?.reflection !== 'string' || !v.reflection.trim())
    throw new Error('"reflection" must be a non-empty string');
  const confidence =
    typeof v.confidence === 'number' && Number.isFinite(v.confidence) ? Math.min(1, Math.max(0, v.confidence)) : 0.5;
  return { reflection: v.reflection.trim(), confidence };
}

export async function llmReflection(
  llm: LlmProvider,
  subjectId: string,
  insights: readonly Memory[],
  sources: readonly Memory[],
): Promise<Reflection> {
  const system = `You write a short profile (a paragraph) of "${subjectId}" for an AI agent, from insights and memories about them. Answer with a JSON object {"reflection": string, "confidence": 0.0-1.0 (how well the material supports it)}.`;
  const material = [
    ...insights.map((m) => `Insight: ${m.content}`),
    ...sources.map((m) => `Memory: ${m.content}`),
  ].join('\n');
  const { value } = await completeJson(
    llm,
    { system, messages: [{ role: 'user', content: material }], temperature: 0 },
    parseReflection,
  );
  return value;
}

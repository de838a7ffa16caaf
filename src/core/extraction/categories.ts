import type { MemoryType } from '../../storage/types.js';
import { classifyByRules } from '../memories/classify.js';
import type { MemorySubtype } from '../memories/vocabulary.js';

/** What extracted memories are about (the reference service's taxonomy, which clients filter commits by). */
export const EXTRACTION_CATEGORIES = ['profile', 'preferences', 'entities', 'events', 'cases', 'patterns'] as const;
export type ExtractionCategory = (typeof EXTRACTION_CATEGORIES)[number];

/** One line per category, for prompts and documentation. */
export const CATEGORY_GUIDE = [
  'profile: who someone is (name, role, expertise, location, organisation)',
  'preferences: choices, likes and dislikes, settings, standing instructions',
  'entities: projects, people, systems, concepts and facts about them',
  'events: decisions, milestones, deadlines, meetings, things that happened',
  'cases: problems met and how they were solved',
  'patterns: reusable procedures, workflows, how-to knowledge',
].join('\n');

const CATEGORY_OF_SUBTYPE: Record<MemorySubtype, ExtractionCategory> = {
  profile: 'profile',
  preference: 'preferences',
  directive: 'preferences',
  entity: 'entities',
  inference: 'entities',
  decision: 'events',
  event: 'events',
  solution: 'cases',
  fix: 'cases',
  problem: 'cases',
  error: 'cases',
  workflow: 'patterns',
  code_pattern: 'patterns',
};

/** Where a memory of the category is filed when nothing more specific is known. */
const FILING: Record<ExtractionCategory, { type: MemoryType; subtype: MemorySubtype | null }> = {
  profile: { type: 'semantic', subtype: 'profile' },
  preferences: { type: 'semantic', subtype: 'preference' },
  entities: { type: 'semantic', subtype: null },
  events: { type: 'episodic', subtype: 'event' },
  cases: { type: 'semantic', subtype: 'solution' },
  patterns: { type: 'procedural', subtype: 'workflow' },
};

/** Words in a working-memory key that name its category ("user_location", "deploy_steps"). */
const KEY_HINTS: Array<[ExtractionCategory, RegExp]> = [
  ['profile', /name|role|job|title|location|city|country|email|phone|age|profile|bio|expertise|team|company/],
  ['preferences', /pref|like|favou?rite|setting|style|theme|instruction|rule/],
  ['events', /decision|decided|milestone|deadline|meeting|event|date|release|launch/],
  ['cases', /bug|error|issue|problem|fix|solution|incident|workaround/],
  ['patterns', /how_?to|workflow|process|steps|procedure|pattern|recipe|checklist/],
];

export interface Classification {
  category: ExtractionCategory;
  type: MemoryType;
  subtype: MemorySubtype | null;
}

/** Category, type and subtype of a statement by the write pipeline's rules; `key` hints when the words do not. */
export function categorise(text: string, key?: string): Classification {
  const rules = classifyByRules(text);
  if (rules.subtype) return { category: CATEGORY_OF_SUBTYPE[rules.subtype], ...rules };
  const hinted = key === undefined ? undefined : KEY_HINTS.find(([, pattern]) => pattern.test(key.toLowerCase()))?.[0];
  if (hinted)
    return { category: hinted, ...FILING[hinted], type: rules.type === 'working' ? 'working' : FILING[hinted].type };
  if (rules.type === 'procedural') return { category: 'patterns', ...rules };
  if (rules.type === 'episodic') return { category: 'events', ...rules };
  return { category: 'entities', ...rules };
}

/** The category of a stored memory: from its subtype when it has a known one, else from its words. */
export function categoryOfMemory(memory: { content: string; subtype: string | null }): ExtractionCategory {
  const bySubtype =
    memory.subtype === null ? undefined : (CATEGORY_OF_SUBTYPE as Record<string, ExtractionCategory>)[memory.subtype];
  return bySubtype ?? categorise(memory.content).category;
}

/** Type and subtype for a category a language model chose. */
export const filingOf = (category: ExtractionCategory): { type: MemoryType; subtype: MemorySubtype | null } =>
  FILING[category];

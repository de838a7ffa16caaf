import { words } from '../text/index.js';
import { categorise, type Classification } from './categories.js';

export interface Assessment extends Classification {
  /** 0..1, comparable with a memory's importance. */
  importance: number;
}

/** How much a statement of each category is usually worth remembering. */
const CATEGORY_BASE = {
  profile: 0.7,
  preferences: 0.65,
  cases: 0.6,
  patterns: 0.6,
  events: 0.55,
  entities: 0.45,
} as const;

const EMPHASIS =
  /\b(?:important|remember|always|never|must|critical|crucial|essential|don't forget|do not forget|note that|make sure|key)\b/i;
/** Something specific: a number, an address, or a capitalised word inside the sentence (a name). */
const SPECIFIC = /\d|@|https?:\/\/|(?<=\S\s+)[A-Z][a-z]/;

/**
 * Rule-based salience, used when no language model is configured: the category's base value, raised by emphasis
 * and specifics, lowered for transient state, questions and fragments. Adjustments: emphasis +0.2, specific +0.1,
 * working state -0.15, question -0.3, under three words -0.25; clamped to 0.05..0.95.
 */
export function assessStatement(text: string, key?: string): Assessment {
  const classification = categorise(text, key);
  let importance: number = CATEGORY_BASE[classification.category];
  if (EMPHASIS.test(text)) importance += 0.2;
  if (SPECIFIC.test(text)) importance += 0.1;
  if (classification.type === 'working') importance -= 0.15;
  if (text.trim().endsWith('?')) importance -= 0.3;
  if (words(text).length < 3) importance -= 0.25;
  return { ...classification, importance: Math.round(Math.min(0.95, Math.max(0.05, importance)) * 100) / 100 };
}

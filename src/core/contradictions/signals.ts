import { words } from '../text/index.js';

const NEGATIONS = new Set(['not', 'no', 'never', 'none', 'nobody', 'nothing', 'neither', 'nor', 'without', 'cannot']);

const hasNegation = (tokens: readonly string[]): boolean => tokens.some((t) => NEGATIONS.has(t) || t.endsWith("n't"));

/** Numbers, including decimals and ordinals ("3rd" → "3"), as they appear in the text. */
const numbersIn = (text: string): string[] => (text.match(/\d+(?:[.,]\d+)?/g) ?? []).map((n) => n.replace(',', '.'));

export interface ConflictSignal {
  kind: 'negation' | 'number_change';
  detail: string;
}

/**
 * Cheap evidence that two similar statements disagree: one negates what the other asserts, or they state
 * different numbers (dates, amounts). Whole tokens only: "this" does not contain the negation "is".
 */
export function conflictSignals(a: string, b: string): ConflictSignal[] {
  const signals: ConflictSignal[] = [];
  if (hasNegation(words(a)) !== hasNegation(words(b))) signals.push({ kind: 'negation', detail: 'one statement negates the other' });
  const numbersA = numbersIn(a);
  const numbersB = numbersIn(b);
  if (numbersA.length > 0 && numbersB.length > 0 && numbersA.join(' ') !== numbersB.join(' ')) {
    signals.push({ kind: 'number_change', detail: `${numbersA.join(', ')} vs ${numbersB.join(', ')}` });
  }
  return signals;
}

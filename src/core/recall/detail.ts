import { estimateTokens } from '../text/index.js';
import type { DetailLevel, TokenSummary } from './types.js';

const ABSTRACT_CHARS = 100;
const OVERVIEW_CHARS = 500;

const cut = (content: string, chars: number): string =>
  content.length <= chars ? content : `${content.slice(0, chars)}...`;

/**
 * The content a detail level returns: the stored tier, else a cut of the content (the reference's behaviour: NOTES.md,
 * "Values from the reference service").
 */
export function contentAt(
  level: DetailLevel,
  memory: { content: string; abstract: string | null; overview: string | null },
): string {
  if (level === 'abstract') return memory.abstract || cut(memory.content, ABSTRACT_CHARS);
  if (level === 'overview') return memory.overview || cut(memory.content, OVERVIEW_CHARS);
  return memory.content;
}

/** Tokens returned against tokens the full contents would have cost. */
export function tokenSummary(returned: readonly string[], full: readonly string[]): TokenSummary {
  const sum = (texts: readonly string[]) => texts.reduce((total, text) => total + estimateTokens(text), 0);
  const returnedTokens = sum(returned);
  const fullTokens = sum(full);
  const savings = fullTokens === 0 ? 0 : Math.round(((fullTokens - returnedTokens) / fullTokens) * 1000) / 10;
  return { returned: returnedTokens, full_would_be: fullTokens, savings_percent: Math.max(0, savings) };
}

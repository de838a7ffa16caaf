import type { MemoryType } from '../../storage/types.js';
import type { MemorySubtype } from './vocabulary.js';

const wholeWords = (phrases: string[]): RegExp => new RegExp(`\\b(?:${phrases.join('|')})\\b`, 'i');

/** Checked in order; the first match wins. Whole words only: "processed" is not "process". */
const TYPE_RULES: Array<[MemoryType, RegExp]> = [
  ['procedural', wholeWords(['how to', 'steps?', 'procedure', 'process', 'method', 'workflow', 'first,? .{0,80}then'])],
  ['working', wholeWords(['currently', 'working on', 'in progress', 'right now', 'blocked', 'next step'])],
  [
    'episodic',
    wholeWords([
      'yesterday',
      'today',
      'tomorrow',
      'last (?:night|week|month|year)',
      'happened',
      'occurred',
      'we (?:met|decided|fixed|shipped|launched)',
    ]),
  ],
];

const SUBTYPE_RULES: Array<[MemorySubtype, RegExp]> = [
  // \b before \w+: without it a long word is tried from each of its letters (quadratic).
  ['code_pattern', /```|\b(?:function|def|class|const|import)\s+\w+|=>|\b\w+\(\)\s*[{;]/],
  ['error', wholeWords(['error', 'exception', 'traceback', 'stack trace', 'crash(?:ed|es)?', 'failed with'])],
  ['fix', wholeWords(['fixed (?:by|it|the)', 'the fix', 'patched', 'workaround'])],
  ['solution', wholeWords(['solution', 'solved (?:by|it|the)', 'resolved (?:by|it|the)', 'the answer is'])],
  ['problem', wholeWords(['problem', 'issue', 'bug', "doesn't work", 'not working', 'broken'])],
  ['decision', wholeWords(['decided', 'decision', 'we chose', 'agreed to', 'going with'])],
  [
    'preference',
    wholeWords(['prefers?', 'preferred', 'favou?rite', 'likes?', 'loves?', 'enjoys?', 'hates?', 'dislikes?']),
  ],
  ['directive', /^(?:always|never|do not|don't|must|please)\b/i],
  ['profile', wholeWords(["i'm an?", 'i am an?', 'my name is', 'works as', 'lives in', 'years old', 'was born'])],
  [
    'event',
    wholeWords(['met', 'meeting', 'launched', 'shipped', 'released', 'incident', 'outage', 'attended', 'visited']),
  ],
];

/** Rule-based classification, used when the caller gave no type (a configured LLM may refine it later). */
export function classifyByRules(content: string): { type: MemoryType; subtype: MemorySubtype | null } {
  const type = TYPE_RULES.find(([, rule]) => rule.test(content))?.[0] ?? 'semantic';
  const subtype = SUBTYPE_RULES.find(([, rule]) => rule.test(content))?.[0] ?? null;
  return { type, subtype };
}

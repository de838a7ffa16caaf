import type { ProcessedQuery } from './query.js';
import { TEMPORAL_WORDS } from './temporal.js';

export type Intent = 'entity' | 'temporal' | 'event' | 'general';

const EVENT_WORDS =
  /\b(meeting|meetings|met|decided|decision|decisions|launch|launched|shipped|released|release|incident|outage|happened|what happened|when did)\b/i;

/**
 * Rule-based intent, from the reference rules (NOTES.md, "Values from the reference service"); several may apply, `general` only when none does.
 * - temporal: a date, month or year, or words like yesterday, recently, ago, since, last week;
 * - event: meetings, decisions, launches, releases, incidents, "what happened", "when did";
 * - entity: quoted text, a multi-word proper noun, or (our extension) any proper noun in the query, since
 *   people and products are usually named by one word ("What did Caroline research?").
 */
export function classifyIntent(query: ProcessedQuery): Intent[] {
  const intents: Intent[] = [];
  if (query.entities.length > 0) intents.push('entity');
  if (query.windows.length > 0 || TEMPORAL_WORDS.test(query.text)) intents.push('temporal');
  if (EVENT_WORDS.test(query.text)) intents.push('event');
  return intents.length > 0 ? intents : ['general'];
}

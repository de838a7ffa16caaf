import { describe, expect, it } from 'vitest';
import { classifyIntent } from '../../../src/core/recall/intent.js';
import { processQuery } from '../../../src/core/recall/query.js';

const NOW = new Date('2024-03-15T12:00:00Z');
const intents = (text: string) => classifyIntent(processQuery(text, NOW));

describe('classifyIntent', () => {
  it('is general when no rule applies, and only then', () => {
    expect(intents('which tools does the team use')).toEqual(['general']);
  });

  it('is about an entity when the query names one, by a single capitalised word or in quotes', () => {
    expect(intents('What did Caroline research?')).toEqual(['entity']);
    expect(intents('notes on "the night market"')).toEqual(['entity']);
  });

  it('is temporal for a date, a month or a year, and for words about time without a date', () => {
    expect(intents('notes from May 2023')).toEqual(['temporal']);
    expect(intents('what did I change recently')).toEqual(['temporal']);
  });

  it('is about an event for meetings, decisions, releases and "what happened"', () => {
    expect(intents('the decision about the database')).toEqual(['event']);
    expect(intents('the outage of the cache')).toEqual(['event']);
  });

  it('applies several rules at once, in the order entity, temporal, event', () => {
    expect(intents('When did Melanie meet the team last week?')).toEqual(['entity', 'temporal', 'event']);
  });
});

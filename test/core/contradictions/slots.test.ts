import { describe, expect, it } from 'vitest';
import { extractSlots, slotConflicts, valuesDisagree, type Slot } from '../../../src/core/contradictions/slots.js';

const slot = (attribute: string, value: string, subject = 'self'): Slot => ({
  subject,
  attribute,
  value,
  strength: 'strong',
});

describe('extractSlots', () => {
  it('reads the single-valued attributes a statement sets, one per sentence', () => {
    expect(extractSlots('I moved to Berlin. I work at Siemens.')).toEqual([
      slot('residence', 'berlin'),
      slot('employer', 'siemens'),
    ]);
  });

  it('takes "the user" and "I" for the same person, and expands contractions', () => {
    expect(extractSlots('The user works for Acme Corp and likes it')).toEqual([slot('employer', 'acme corp')]);
    expect(extractSlots("I'm based in Lyon")).toEqual([slot('residence', 'lyon')]);
  });

  it('ends a free value at the word that starts another clause, without leading articles', () => {
    expect(extractSlots('We prefer dark mode because it is easier')).toEqual([
      { subject: 'we', attribute: 'preference', value: 'dark mode', strength: 'weak' },
    ]);
    expect(extractSlots('Our budget is now 5000 dollars')).toEqual([slot('budget', '5000 dollars', 'we')]);
  });

  it('reads an opinion as positive or negative about its object', () => {
    expect(extractSlots('Ana really loves sushi and ramen')).toEqual([slot('opinion of sushi', 'positive', 'ana')]);
    expect(extractSlots('Ana hates sushi')).toEqual([slot('opinion of sushi', 'negative', 'ana')]);
  });

  it('sets nothing for the past tense (history) or a statement without such an attribute', () => {
    expect(extractSlots('I lived in Paris')).toEqual([]);
    expect(extractSlots('The weather was nice')).toEqual([]);
  });
});

describe('valuesDisagree', () => {
  it('holds when neither value names the other', () => {
    expect(valuesDisagree('paris', 'berlin')).toBe(true);
    expect(valuesDisagree('paris', 'paris france')).toBe(false);
    expect(valuesDisagree('paris france', 'paris')).toBe(false);
  });

  it('compares values of stopwords only as they are written', () => {
    expect(valuesDisagree('the', 'a')).toBe(true);
    expect(valuesDisagree('the', 'the')).toBe(false);
  });
});

describe('slotConflicts', () => {
  it('pairs slots of the same subject and attribute whose values disagree', () => {
    const paris = slot('residence', 'paris');
    const berlin = slot('residence', 'berlin');
    expect(slotConflicts([paris, slot('employer', 'acme')], [berlin, slot('employer', 'acme')])).toEqual([
      [paris, berlin],
    ]);
  });

  it('does not pair another subject or another attribute', () => {
    expect(slotConflicts([slot('residence', 'paris')], [slot('residence', 'berlin', 'ana')])).toEqual([]);
    expect(slotConflicts([slot('residence', 'paris')], [slot('origin', 'berlin')])).toEqual([]);
  });
});

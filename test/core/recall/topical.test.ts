import { describe, expect, it } from 'vitest';
import { processQuery } from '../../../src/core/recall/query.js';
import { holdsEveryWord } from '../../../src/core/recall/keyword-score.js';
import { topicalText } from '../../../src/core/recall/topical.js';

const topical = (text: string) => topicalText(processQuery(text, new Date('2024-03-15T12:00:00Z')));

describe('topicalText', () => {
  it('takes the names a query asks about out of it', () => {
    expect(topical('When did Anouk Holm try out a pendant?')).toBe('When did try out a pendant?');
    expect(topical('What did Melanie and Dr. Seuss talk about?')).toBe('What did and talk about?');
  });

  it("takes a name's possessive and a quoted name's quotes with it", () => {
    expect(topical("Where did Anouk Holm's bicycle break?")).toBe('Where did bicycle break?');
    expect(topical('What did I buy at "the night market" in June?')).toBe('What did I buy at in June?');
  });

  it('is null for a query that names no one, or nothing else', () => {
    expect(topical('when did someone fix the bike?')).toBeNull();
    expect(topical('Anouk Holm')).toBeNull();
  });
});

describe('holdsEveryWord', () => {
  const holds = (query: string, text: string) =>
    holdsEveryWord(processQuery(query, new Date('2024-03-15T12:00:00Z')))(text);

  it('compares words by their Porter stems and verb forms, as the keyword index does', () => {
    expect(holds('When did Anouk Abara examine the carpet?', 'Anouk Abara examined a vintage carpet.')).toBe(true);
    expect(holds('When did Ana draw the map?', 'Ana drew a map of the bay.')).toBe(true);
  });

  it('is false when a word is missing, and for a query of one word', () => {
    expect(holds('When did Anouk Abara examine the carpet?', 'Anouk Abara donated a carpet.')).toBe(false);
    expect(holds('carpet', 'a carpet')).toBe(false);
  });
});

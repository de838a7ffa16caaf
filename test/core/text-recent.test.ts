import { describe, expect, it } from 'vitest';
import { keepRecentResults, RECENT_TEXTS } from '../../src/core/text/recent.js';

/** An analysis that counts its runs per text. */
function counted() {
  const runs = new Map<string, number>();
  const analyse = (text: string) => {
    runs.set(text, (runs.get(text) ?? 0) + 1);
    return { length: text.length };
  };
  return { runs, analyse };
}

describe('keepRecentResults', () => {
  it('analyses a text once while it is recent, and each text on its own', () => {
    const { runs, analyse } = counted();
    const lengthOf = keepRecentResults(analyse, RECENT_TEXTS);
    const first = lengthOf('Ana moved to Oslo.');
    expect(lengthOf('Ana moved to Oslo.')).toBe(first);
    expect(lengthOf('Ana lives in Bergen.')).toEqual({ length: 20 });
    expect(first).toEqual({ length: 18 });
    expect([...runs]).toEqual([
      ['Ana moved to Oslo.', 1],
      ['Ana lives in Bergen.', 1],
    ]);
  });

  it('keeps the last RECENT_TEXTS.maxTexts texts, not every text it was given', () => {
    const { runs, analyse } = counted();
    const lengthOf = keepRecentResults(analyse, RECENT_TEXTS);
    for (let i = 0; i <= RECENT_TEXTS.maxTexts; i++) lengthOf(`text ${i}`);
    lengthOf(`text ${RECENT_TEXTS.maxTexts}`);
    expect(runs.get(`text ${RECENT_TEXTS.maxTexts}`)).toBe(1);
    lengthOf('text 0');
    expect(runs.get('text 0')).toBe(2);
  });

  it('is bounded by the characters it holds, as sizeOf counts them', () => {
    const { runs, analyse } = counted();
    const byLength = keepRecentResults(analyse, { maxCharacters: 100 });
    const thirty = (c: string) => c.repeat(30);
    for (const c of 'abc') byLength(thirty(c));
    byLength(thirty('a'));
    expect(runs.get(thirty('a'))).toBe(1);
    byLength(thirty('d')); // 4 × 31 characters: the least recent ('b') goes
    byLength(thirty('b'));
    expect(runs.get(thirty('b'))).toBe(2);

    const { runs: doubledRuns, analyse: analyseDoubled } = counted();
    const doubled = keepRecentResults(analyseDoubled, { maxCharacters: 100, sizeOf: (_, text) => 2 * text.length });
    for (const c of 'ab') doubled(thirty(c)); // 2 × 60 characters: 'a' goes already
    doubled(thirty('a'));
    expect(doubledRuns.get(thirty('a'))).toBe(2);
  });
});

import { describe, expect, it } from 'vitest';
import { laterFirst, type Placed } from '../../../src/core/recall/contradicted.js';

/** Results in this order, scored 10, 9, 8, … */
const ranked = (...ids: string[]): Placed[] =>
  ids.map((id, i) => ({ id, boosted: 10 - i, signals: new Set(['keyword'] as const) }));
const ids = (placed: readonly Placed[]) => placed.map((p) => p.id);
const signals = (placed: readonly Placed[]) => Object.fromEntries(placed.map((p) => [p.id, [...p.signals].sort()]));

describe('laterFirst', () => {
  it("moves the later memory right before the earlier one, with the earlier one's score", () => {
    const placed = laterFirst(ranked('old', 'x', 'y', 'new', 'z'), [{ earlier: 'old', later: 'new' }]);
    expect(ids(placed)).toEqual(['new', 'old', 'x', 'y', 'z']);
    expect(placed.map((p) => p.boosted)).toEqual([10, 10, 9, 8, 6]);
    expect(signals(placed)).toMatchObject({ old: ['contradicted', 'keyword'], new: ['keyword'] });
  });

  it('leaves a later memory already ahead where it is, and marks the earlier one', () => {
    const placed = laterFirst(ranked('new', 'x', 'old'), [{ earlier: 'old', later: 'new' }]);
    expect(ids(placed)).toEqual(['new', 'x', 'old']);
    expect(placed.map((p) => p.boosted)).toEqual([10, 9, 8]);
    expect(signals(placed).old).toEqual(['contradicted', 'keyword']);
  });

  it('brings in no later memory that was not ranked', () => {
    const placed = laterFirst(ranked('old', 'x'), [{ earlier: 'old', later: 'elsewhere' }]);
    expect(ids(placed)).toEqual(['old', 'x']);
    expect(signals(placed).old).toEqual(['contradicted', 'keyword']);
  });

  it('settles a chain of corrections newest first, whatever order the pairs come in', () => {
    const pairs = [
      { earlier: 'b', later: 'c' },
      { earlier: 'a', later: 'b' },
      { earlier: 'a', later: 'c' },
    ];
    for (const order of [pairs, [...pairs].reverse()]) {
      const placed = laterFirst(ranked('a', 'x', 'b', 'y', 'c'), order);
      expect(ids(placed)).toEqual(['c', 'b', 'a', 'x', 'y']);
      expect(placed.map((p) => p.boosted)).toEqual([10, 10, 10, 9, 7]);
    }
  });

  it('does not reorder the list it was given', () => {
    const input = ranked('old', 'new');
    laterFirst(input, [{ earlier: 'old', later: 'new' }]);
    expect(ids(input)).toEqual(['old', 'new']);
  });
});

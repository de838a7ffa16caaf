import { describe, expect, it } from 'vitest';
import { embedInLengthSortedBatches, inBatches } from '../../../src/providers/embedding/batching.js';
import { mixedLengthTexts } from './helpers.js';

describe('embedInLengthSortedBatches', () => {
  it('groups texts of similar length, keeps at most `concurrency` batches in flight and returns vectors in input order', async () => {
    const texts = mixedLengthTexts(50);
    const batches: string[][] = [];
    let inFlight = 0;
    let maxInFlight = 0;
    const vectors = await embedInLengthSortedBatches(texts, { batchSize: 8, concurrency: 2 }, async (batch) => {
      batches.push(batch);
      maxInFlight = Math.max(maxInFlight, ++inFlight);
      await new Promise((resolve) => setTimeout(resolve, 5));
      inFlight--;
      // Each "vector" records which text it was computed for.
      return batch.map((text) => Float32Array.of(texts.indexOf(text)));
    });
    expect(vectors.map((vector) => vector[0])).toEqual(texts.map((_, i) => i));
    expect(maxInFlight).toBe(2);
    expect(batches.map((batch) => batch.length)).toEqual([8, 8, 8, 8, 8, 8, 2]);
    const lengths = batches.flat().map((text) => text.length);
    expect(lengths).toEqual([...lengths].sort((a, b) => a - b));
  });

  it('splits into consecutive batches', () => {
    expect(inBatches([1, 2, 3, 4, 5], 2)).toEqual([[1, 2], [3, 4], [5]]);
    expect(inBatches([], 2)).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import { keepRecentResults } from '../../src/core/text/recent.js';

describe('keepRecentResults', () => {
  it('analyses a text once while it is recent, and each text on its own', () => {
    const analysed: string[] = [];
    const lengthOf = keepRecentResults((text) => {
      analysed.push(text);
      return { length: text.length };
    });
    const first = lengthOf('Ana moved to Oslo.');
    expect(lengthOf('Ana moved to Oslo.')).toBe(first);
    expect(lengthOf('Ana lives in Bergen.')).toEqual({ length: 20 });
    expect(first).toEqual({ length: 18 });
    expect(analysed).toEqual(['Ana moved to Oslo.', 'Ana lives in Bergen.']);
  });

  it('keeps the last 4,096 texts, not every text it was given', () => {
    let calls = 0;
    const analyse = keepRecentResults((text) => {
      calls++;
      return [text];
    });
    for (let i = 0; i <= 4_096; i++) analyse(`text ${i}`);
    expect(calls).toBe(4_097);
    analyse('text 4096');
    expect(calls).toBe(4_097);
    analyse('text 0');
    expect(calls).toBe(4_098);
  });
});

import { LRUCache } from 'lru-cache';

export interface RecentResultsBounds<T> {
  /** Characters held, counted by `sizeOf`: a memory may run to 200,000 characters, so entries alone bound nothing. */
  maxCharacters: number;
  /** Texts held at most; unset, only the characters bound them. */
  maxTexts?: number;
  /** What one text and its result count against `maxCharacters`; the text's length by default. */
  sizeOf?: (result: T, text: string) => number;
}

/**
 * What a per-text analysis (words, contradiction slots, dates) keeps: enough for an enrichment batch's memories and
 * their neighbours, or a recall's candidates, to be met again by the next ones.
 */
export const RECENT_TEXTS = { maxTexts: 4_096, maxCharacters: 32_000_000 } as const;

/**
 * `compute`, with its results for recently seen texts kept. The same texts are analysed again and again (a new memory
 * against each of its neighbours during enrichment, a recall's candidates in the next recalls); what `compute`
 * returns is shared between callers and must not be changed.
 */
export function keepRecentResults<T extends object>(
  compute: (text: string) => T,
  bounds: RecentResultsBounds<T>,
): (text: string) => T {
  const recent = new LRUCache<string, T>({
    ...(bounds.maxTexts === undefined ? {} : { max: bounds.maxTexts }),
    maxSize: bounds.maxCharacters,
    sizeCalculation: bounds.sizeOf ?? ((_result, text) => text.length + 1),
  });
  return (text) => {
    let result = recent.get(text);
    if (result === undefined) {
      result = compute(text);
      recent.set(text, result);
    }
    return result;
  };
}

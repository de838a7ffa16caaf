import { LRUCache } from 'lru-cache';

/**
 * `compute`, with its results for recently seen texts kept (4,096 texts, 32 million characters of them at most). Enrichment
 * compares each new memory with each of its neighbours, so a text is analysed again for every pair it is in; what
 * `compute` returns is shared between callers and must not be changed.
 */
export function keepRecentResults<T extends object>(compute: (text: string) => T): (text: string) => T {
  const recent = new LRUCache<string, T>({
    max: 4_096,
    maxSize: 32_000_000,
    sizeCalculation: (_result, text) => text.length + 1,
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

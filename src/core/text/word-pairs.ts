/**
 * Pairs of words that are each other's form, as a lookup both ways: a query says either and a memory the other
 * (irregular plurals, numbers in digits and words, British and American spellings).
 */
export function bothWays(pairs: ReadonlyArray<readonly [string, string]>): ReadonlyMap<string, string> {
  const other = new Map<string, string>();
  for (const [one, two] of pairs) {
    other.set(one, two);
    other.set(two, one);
  }
  return other;
}

/** The other word of the pair `word` is in, as a list of forms (none where it is in no pair). */
export const otherOfPair = (pairs: ReadonlyMap<string, string>, word: string): readonly string[] => {
  const other = pairs.get(word);
  return other === undefined ? [] : [other];
};

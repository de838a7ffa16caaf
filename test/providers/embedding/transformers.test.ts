import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TransformersEmbeddingProvider } from '../../../src/providers/embedding/transformers.js';
import { TINY_BERT_DIMENSIONS, writeTinyBertModel } from './fixtures/tiny-bert.js';
import { dot, expectUnitVectors, mixedLengthTexts } from './helpers.js';

const scratch = mkdtempSync(join(tmpdir(), 'memd-transformers-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function modelDirectory(name: string, onnxFile?: 'model.onnx' | 'model_quantized.onnx'): string {
  const directory = join(scratch, name);
  writeTinyBertModel(directory, onnxFile);
  return directory;
}

describe('transformers embedding provider, with a tiny ONNX model written by the test (offline)', () => {
  it('loads a local directory, learns its width and mean-pools to unit vectors in input order', async () => {
    const provider = new TransformersEmbeddingProvider({ model: modelDirectory('fp32'), dimensions: undefined });
    try {
      await provider.init();
      expect(provider.dimensions).toBe(TINY_BERT_DIMENSIONS);
      const texts = mixedLengthTexts(40);
      const batched = await provider.embed(texts);
      expectUnitVectors(batched, TINY_BERT_DIMENSIONS);
      for (const [i, text] of texts.entries())
        expect(dot(batched[i]!, (await provider.embed([text]))[0]!)).toBeCloseTo(1, 5);
      const [cat, kitten, revenue, blank] = await provider.embed([
        'The cat sat on the mat',
        'A kitten is sitting on a rug',
        'Quarterly revenue grew 4%',
        '',
      ]);
      expect(dot(cat!, kitten!)).toBeGreaterThan(dot(cat!, revenue!));
      expect(blank![0]).toBe(1);
    } finally {
      await provider.close();
    }
  });

  it('falls back to the quantised ONNX file when that is the only one shipped', async () => {
    const provider = new TransformersEmbeddingProvider({
      model: modelDirectory('q8', 'model_quantized.onnx'),
      dimensions: TINY_BERT_DIMENSIONS,
    });
    try {
      expectUnitVectors(await provider.embed(['hello world']), TINY_BERT_DIMENSIONS);
    } finally {
      await provider.close();
    }
  });

  it('refuses a model whose width differs from MEMD_EMBEDDING_DIMENSIONS', async () => {
    const provider = new TransformersEmbeddingProvider({ model: modelDirectory('narrow'), dimensions: 384 });
    await expect(provider.init()).rejects.toMatchObject({
      code: 'provider_unavailable',
      message: expect.stringContaining('MEMD_EMBEDDING_DIMENSIONS is 384'),
    });
  });
});

describe('transformers embedding provider errors', () => {
  it('says to install the optional package when it is missing', async () => {
    const missing = Object.assign(
      new Error("Cannot find package '@huggingface/transformers' imported from /srv/memd"),
      { code: 'ERR_MODULE_NOT_FOUND' },
    );
    const provider = new TransformersEmbeddingProvider(
      { model: 'Xenova/all-MiniLM-L6-v2', dimensions: undefined },
      () => Promise.reject(missing),
    );
    await expect(provider.init()).rejects.toMatchObject({
      code: 'provider_unavailable',
      message: expect.stringContaining('npm install @huggingface/transformers'),
    });
    await expect(provider.embed(['hello'])).rejects.toMatchObject({ code: 'provider_unavailable' });
  });

  it('names a local model path that does not exist', async () => {
    const provider = new TransformersEmbeddingProvider({ model: join(scratch, 'nowhere'), dimensions: undefined });
    await expect(provider.init()).rejects.toMatchObject({
      code: 'provider_unavailable',
      message: expect.stringContaining(join(scratch, 'nowhere')),
    });
  });

  it('lists the files a local model directory needs when they are absent', async () => {
    const empty = join(scratch, 'empty');
    mkdirSync(empty);
    const provider = new TransformersEmbeddingProvider({ model: empty, dimensions: undefined });
    await expect(provider.init()).rejects.toMatchObject({
      code: 'provider_unavailable',
      message: expect.stringContaining('onnx/model.onnx'),
    });
  });

  it('needs a model', () => {
    expect(() => new TransformersEmbeddingProvider({ model: undefined, dimensions: undefined })).toThrow(
      /MEMD_EMBEDDING_MODEL/,
    );
  });
});

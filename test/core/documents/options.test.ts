import { describe, expect, it } from 'vitest';
import { chunksOf, DEFAULT_EXTRACTION_OPTIONS, resolveOptions } from '../../../src/core/documents/options.js';
import { PASSAGE_CHARS, passagesOf } from '../../../src/core/documents/passages.js';

describe('resolveOptions (how a document is cut)', () => {
  it('is the defaults when no layer sets anything', () => {
    expect(resolveOptions()).toEqual({ chunk_size: 1_000, page_size: 3_000 });
    expect(resolveOptions(undefined, {})).toEqual(DEFAULT_EXTRACTION_OPTIONS);
  });

  it('lets a later layer override an earlier one, field by field', () => {
    expect(resolveOptions({ chunk_size: 200, page_size: 800 }, { chunk_size: 300 })).toEqual({
      chunk_size: 300,
      page_size: 800,
    });
  });

  it('takes numbers only, and only the fields it knows', () => {
    expect(resolveOptions({ chunk_size: '200', page_size: null, other: 5 })).toEqual(DEFAULT_EXTRACTION_OPTIONS);
  });
});

describe('chunksOf', () => {
  it('cuts each page on its own and numbers the chunks across the document', () => {
    const pages = [
      { page_no: 1, transcript: 'First paragraph.\n\nSecond paragraph.' },
      { page_no: 2, transcript: 'Third one.' },
    ];
    expect(chunksOf(pages, 20)).toEqual([
      { page_no: 1, index: 0, text: 'First paragraph.' },
      { page_no: 1, index: 1, text: 'Second paragraph.' },
      { page_no: 2, index: 2, text: 'Third one.' },
    ]);
  });

  it('never joins the end of one page with the start of the next, even when both would fit', () => {
    const pages = [
      { page_no: 1, transcript: 'Short.' },
      { page_no: 2, transcript: 'Also short.' },
    ];
    expect(chunksOf(pages, 1_000).map((chunk) => [chunk.page_no, chunk.text])).toEqual([
      [1, 'Short.'],
      [2, 'Also short.'],
    ]);
  });

  it('gives the same chunks for the same pages and size', () => {
    const pages = [{ page_no: 1, transcript: 'One. Two. Three. Four. Five. Six. Seven. Eight.' }];
    expect(chunksOf(pages, 12)).toEqual(chunksOf(pages, 12));
    expect(chunksOf(pages, 12).length).toBeGreaterThan(1);
  });
});

describe('passagesOf (what page search embeds)', () => {
  it('keeps a transcript that fits as one passage', () => {
    expect(passagesOf('A page with one short paragraph.')).toEqual(['A page with one short paragraph.']);
  });

  it('cuts a long transcript into passages of at most PASSAGE_CHARS that hold every word, in order', () => {
    const paragraph = (n: number) => `Paragraph ${n} ${'word '.repeat(60).trim()}.`;
    const transcript = Array.from({ length: 6 }, (_, i) => paragraph(i + 1)).join('\n\n');
    const passages = passagesOf(transcript);
    expect(passages.length).toBeGreaterThan(1);
    expect(passages.filter((passage) => passage.length > PASSAGE_CHARS)).toEqual([]);
    expect(passages.join(' ').split(/\s+/)).toEqual(transcript.split(/\s+/));
  });
});

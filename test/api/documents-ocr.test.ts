import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  multiPageTiff,
  pdfWithScans,
  textImage,
  textTiff,
  uploadDocument,
  type UploadFile,
} from '../support/documents.js';
import { client, startServer, type Client, type TestServer } from '../support/server.js';

// OCR is slow: few tests, small images. The server reads images in-process (the default, MEMD_OCR_PROVIDER=local).
let server: TestServer;
let api: Client;

beforeAll(async () => {
  server = await startServer();
  api = client(server.url);
});
afterAll(() => server.stop());

const SCAN = ['The lighthouse keeper logged', 'forty storms in the winter of 1887.'];
const OCR_MODEL = 'tesseract.js-eng-best-int';

/** Uploads, runs the queued work, and returns the document, its job and its pages. */
async function ingest(file: UploadFile) {
  const accepted = await uploadDocument(server.url, file);
  expect(accepted.status, JSON.stringify(accepted.body)).toBe(202);
  await server.drainTasks();
  const { document, job } = (await api.get(`/v1/documents/${accepted.body.document.id}`)).body;
  const pages = (await api.get(`/v1/documents/${document.id}/pages`)).body.pages;
  return { document, job, pages };
}

const words = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9 ]/g, ' ')
    .split(/\s+/)
    .filter(Boolean);

describe('OCR of scanned pages and images', () => {
  it('a PDF page that is only an image is read by OCR; text pages keep their text layer; memories cite the scanned page', async () => {
    const { document, job, pages } = await ingest({
      name: 'logbook.pdf',
      bytes: await pdfWithScans([
        { text: 'Harbour records, volume two.' },
        { scan: SCAN },
        { text: 'Index of ships and keepers.' },
      ]),
    });
    expect(job).toMatchObject({ status: 'completed', error: null, page_errors: [] });
    expect(document).toMatchObject({ document_type: 'pdf', page_count: 3 });
    expect(pages.map((p: any) => [p.page_no, p.transcript_model])).toEqual([
      [1, 'unpdf'],
      [2, OCR_MODEL],
      [3, 'unpdf'],
    ]);
    expect(pages[0].transcript_confidence).toBeNull();
    expect(words(pages[1].transcript)).toEqual(
      expect.arrayContaining(['lighthouse', 'keeper', 'logged', 'forty', 'storms', 'winter', '1887']),
    );
    expect(pages[1].transcript_confidence).toBeGreaterThan(0.6);

    const memories = (await api.get(`/v1/documents/${document.id}/memories`)).body.memories;
    const scanned = memories.find((m: any) => m.metadata.page_no === 2);
    expect(scanned.content).toBe(pages[1].transcript);
    expect(scanned.metadata).toMatchObject({ document_id: document.id, page_no: 2 });

    const found = await api.post('/v1/documents/search', {
      query: 'lighthouse keeper storms',
      limit: 1,
      doc_ids: [document.id],
    });
    expect(found.body.pages[0]).toMatchObject({
      page_no: 2,
      transcript_model: OCR_MODEL,
      passage: { index: 0, text: pages[1].transcript },
    });
  });

  it('PNG, JPEG, TIFF and WebP uploads become one OCR page each', async () => {
    // A different number on each, so that no text is an exact duplicate of another upload's (which would not be linked).
    const lines = (n: number) => [`Invoice ${n} for seven oak barrels`];
    const uploads: UploadFile[] = [
      { name: 'invoice.png', type: 'image/png', bytes: await textImage(lines(4471)) },
      { name: 'invoice.jpg', bytes: await textImage(lines(4472), 'jpeg') },
      { name: 'invoice.tiff', type: 'image/tiff', bytes: await textTiff(lines(4473)) },
      // No name or type that says what it is: the signature does.
      { name: 'upload', bytes: await textImage(lines(4474), 'webp') },
    ];
    for (const [i, file] of uploads.entries()) {
      const { document, job, pages } = await ingest(file);
      expect(job, file.name).toMatchObject({ status: 'completed', error: null });
      expect(document).toMatchObject({ document_type: 'image', page_count: 1, memory_count: 1 });
      expect(pages[0].transcript_model).toBe(OCR_MODEL);
      expect(words(pages[0].transcript), file.name).toEqual(
        expect.arrayContaining(['invoice', String(4471 + i), 'seven', 'oak', 'barrels']),
      );
    }
    const mimes = (await api.get('/v1/documents?document_type=image')).body.documents.map((d: any) => d.mime_type);
    expect(mimes.sort()).toEqual(['image/jpeg', 'image/png', 'image/tiff', 'image/webp']);
  });

  it('each image of a multi-page TIFF is a page of its own, read by OCR; a page that cannot be read is listed and the others kept', async () => {
    const tiff = await multiPageTiff([
      ['Minutes of the harbour board', 'meeting of 3 May'],
      ['This page claims to be enormous'],
      ['The dredger was sold', 'to the Cork company'],
    ]);
    // The second page's IFD claims 100,000 × 100,000 pixels (its first two entries: ImageWidth, ImageLength).
    const firstIfd = tiff.readUInt32LE(4);
    const secondIfd = tiff.readUInt32LE(firstIfd + 2 + tiff.readUInt16LE(firstIfd) * 12);
    tiff.writeUInt32LE(100_000, secondIfd + 2 + 8);
    tiff.writeUInt32LE(100_000, secondIfd + 2 + 12 + 8);

    const { document, job, pages } = await ingest({ name: 'board-minutes.tiff', bytes: tiff });
    expect(job).toMatchObject({ status: 'completed', error: null });
    expect(job.page_errors).toEqual([
      { page_no: 2, code: 'image_too_large', message: expect.stringContaining('MEMD_OCR_MAX_PIXELS') },
    ]);
    expect(document).toMatchObject({ document_type: 'image', mime_type: 'image/tiff', page_count: 3 });
    expect(pages.map((p: any) => [p.page_no, p.transcript_model])).toEqual([
      [1, OCR_MODEL],
      [2, OCR_MODEL],
      [3, OCR_MODEL],
    ]);
    expect(words(pages[0].transcript)).toEqual(
      expect.arrayContaining(['minutes', 'harbour', 'board', 'meeting', 'may']),
    );
    expect(pages[1].transcript).toBe('');
    expect(words(pages[2].transcript)).toEqual(expect.arrayContaining(['dredger', 'sold', 'cork', 'company']));
    expect(words(pages[0].transcript)).not.toContain('dredger');

    const memories = (await api.get(`/v1/documents/${document.id}/memories`)).body.memories;
    expect(memories.map((m: any) => m.metadata.page_no).sort()).toEqual([1, 3]);
    const found = await api.post('/v1/documents/search', {
      query: 'dredger sold to the Cork company',
      limit: 1,
      doc_ids: [document.id],
    });
    expect(found.body.pages[0]).toMatchObject({ page_no: 3 });
  });

  it('an image that cannot be read fails its job with the reason; a decompression bomb is refused from its header', async () => {
    const png = await textImage(['never read']);
    const corrupt = await ingest({
      name: 'torn.png',
      type: 'image/png',
      bytes: Buffer.concat([png.subarray(0, 64), Buffer.alloc(200, 7)]),
    });
    expect(corrupt.job).toMatchObject({
      status: 'failed',
      error: { code: 'corrupt_document', message: expect.stringMatching(/image/) },
    });
    expect(corrupt.document).toMatchObject({ page_count: 0, memory_count: 0 });

    // A PNG header that claims 100,000 × 100,000 pixels: 40 GB decoded, refused before anything decodes it.
    const bomb = Buffer.from(png);
    bomb.writeUInt32BE(100_000, 16);
    bomb.writeUInt32BE(100_000, 20);
    const refused = await ingest({ name: 'bomb.png', bytes: bomb });
    expect(refused.job.error).toEqual({
      code: 'image_too_large',
      message: expect.stringContaining('MEMD_OCR_MAX_PIXELS'),
    });
  });
});

describe('OCR off', () => {
  let off: TestServer;
  beforeAll(async () => {
    off = await startServer({ env: { MEMD_OCR_PROVIDER: 'off' } });
  });
  afterAll(() => off.stop());

  it('an image upload is a 501 saying how to turn OCR on; a scanned PDF fails with no_text saying the same', async () => {
    const image = await uploadDocument(off.url, { name: 'note.png', bytes: await textImage(['hello']) });
    expect(image.status).toBe(501);
    expect(image.body).toMatchObject({
      code: 'not_implemented',
      message: expect.stringContaining('MEMD_OCR_PROVIDER=local'),
    });
    expect((await client(off.url).get('/v1/documents')).body.total_count).toBe(0);

    const pdf = await uploadDocument(off.url, { name: 'scan.pdf', bytes: await pdfWithScans([{ scan: ['hello'] }]) });
    await off.drainTasks();
    const job = (await client(off.url).get(`/v1/documents/jobs/${pdf.body.job.id}`)).body.job;
    expect(job.error).toEqual({ code: 'no_text', message: expect.stringContaining('MEMD_OCR_PROVIDER=off') });
  });
});

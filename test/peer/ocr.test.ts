import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { multiPageTiff, textImage, uploadDocument } from '../support/documents.js';
import { startPeer, type TestPeer } from '../support/peer.js';
import { client, startServer } from '../support/server.js';

let peer: TestPeer;
let api: ReturnType<typeof client>;

beforeAll(async () => {
  peer = await startPeer({ MEMD_PEER_OCR: 'local' });
  api = client(peer.url);
});
afterAll(() => peer.stop());

const post = (body: Uint8Array, contentType: string) =>
  fetch(`${peer.url}/v1/ocr`, { method: 'POST', headers: { 'content-type': contentType }, body });

describe('OCR on the peer', () => {
  it('reads an image sent as bytes or as base64 JSON: text, lines with words and confidences, the model', async () => {
    expect((await api.get('/health/ready')).body.ocr).toEqual({
      model: 'tesseract.js-eng-best-int',
      state: 'ready',
      error: null,
    });
    const png = await textImage(['Quarterly tide tables', 'printed in Falmouth']);
    const raw = await post(png, 'image/png');
    expect(raw.status).toBe(200);
    const result = (await raw.json()) as any;
    expect(result).toMatchObject({
      object: 'ocr',
      model: 'tesseract.js-eng-best-int',
      width: expect.any(Number),
      height: expect.any(Number),
    });
    expect(result.text).toMatch(/Quarterly tide tables\s+printed in Falmouth/);
    expect(result.lines.map((l: any) => l.text)).toEqual(['Quarterly tide tables', 'printed in Falmouth']);
    expect(result.lines[0].words.map((w: any) => w.text)).toEqual(['Quarterly', 'tide', 'tables']);
    expect(result.lines[0].words[0]).toMatchObject({
      confidence: expect.any(Number),
      bbox: { x0: expect.any(Number), y0: expect.any(Number), x1: expect.any(Number), y1: expect.any(Number) },
    });
    expect(result.confidence).toBeGreaterThan(0.6);
    expect(result.confidence).toBeLessThanOrEqual(1);

    const json = await api.post('/v1/ocr', { image: `data:image/png;base64,${png.toString('base64')}` });
    expect(json.body.text).toBe(result.text);
    const load = (await api.get('/health/load')).body.providers.find((p: any) => p.kind === 'ocr');
    expect(load).toMatchObject({ name: 'local', completed: 2, failed: 0 });
  });

  it('refuses what it cannot read with the reason in the error code', async () => {
    const garbage = await post(Buffer.from('not an image'), 'application/octet-stream');
    expect([garbage.status, ((await garbage.json()) as any).error]).toEqual([
      400,
      {
        message: expect.stringContaining('not a readable image'),
        type: 'invalid_request_error',
        code: 'invalid_image',
      },
    ]);
    const bomb = Buffer.from(await textImage(['x']));
    bomb.writeUInt32BE(60_000, 16);
    bomb.writeUInt32BE(60_000, 20);
    const large = await post(bomb, 'image/png');
    expect([large.status, ((await large.json()) as any).error.code]).toEqual([413, 'image_too_large']);
    expect((await api.post('/v1/ocr', { picture: 'x' })).status).toBe(400);
  });

  it('memd with MEMD_OCR_PROVIDER=peer reads an uploaded image through the peer', async () => {
    const server = await startServer({ env: { MEMD_OCR_PROVIDER: 'peer', MEMD_OCR_BASE_URL: `${peer.url}/v1` } });
    try {
      const accepted = await uploadDocument(server.url, {
        name: 'sign.png',
        bytes: await textImage(['Mind the gap between platforms']),
      });
      expect(accepted.status).toBe(202);
      await server.drainTasks();
      const pages = (await client(server.url).get(`/v1/documents/${accepted.body.document.id}/pages`)).body.pages;
      expect(pages).toMatchObject([
        { page_no: 1, transcript: 'Mind the gap between platforms', transcript_model: 'tesseract.js-eng-best-int' },
      ]);
      // Each page of a multi-page TIFF goes to the peer on its own.
      const tiff = await uploadDocument(server.url, {
        name: 'timetable.tiff',
        bytes: await multiPageTiff([['Trains leave every hour'], ['Last ferry at midnight']]),
      });
      await server.drainTasks();
      const tiffPages = (await client(server.url).get(`/v1/documents/${tiff.body.document.id}/pages`)).body.pages;
      expect(tiffPages.map((p: any) => [p.page_no, p.transcript])).toEqual([
        [1, 'Trains leave every hour'],
        [2, 'Last ferry at midnight'],
      ]);
      const broken = await uploadDocument(server.url, {
        name: 'broken.png',
        bytes: Buffer.from('\x89PNG\r\n\x1a\nnot really'),
      });
      await server.drainTasks();
      const job = (await client(server.url).get(`/v1/documents/jobs/${broken.body.job.id}`)).body.job;
      expect(job.error).toEqual({ code: 'corrupt_document', message: expect.stringContaining('image') });
    } finally {
      await server.stop();
    }
  });

  it("documents /v1/ocr in the peer's OpenAPI: the bodies it takes and the answer's shape", async () => {
    const document = (await api.get('/openapi.json')).body;
    const operation = document.paths['/v1/ocr'].post;
    expect(Object.keys(operation.requestBody.content)).toEqual(
      expect.arrayContaining(['application/json', 'application/octet-stream', 'image/png', 'image/tiff']),
    );
    expect(operation.requestBody.content['application/json'].schema).toMatchObject({
      required: ['image'],
      properties: { image: { type: 'string' } },
    });
    const answer = operation.responses['200'].content['application/json'].schema;
    expect(Object.keys(answer.properties).sort()).toEqual([
      'confidence',
      'height',
      'lines',
      'model',
      'object',
      'text',
      'width',
    ]);
    expect(Object.keys(answer.properties.lines.items.properties.words.items.properties).sort()).toEqual([
      'bbox',
      'confidence',
      'text',
    ]);
    expect(
      operation.responses['4XX'].content['application/json'].schema.properties.error.properties.code.description,
    ).toContain('image_too_large');
  });

  it('answers 501 when OCR is off on the peer', async () => {
    const off = await startPeer({ MEMD_PEER_OCR: 'off' });
    try {
      const response = await fetch(`${off.url}/v1/ocr`, {
        method: 'POST',
        headers: { 'content-type': 'image/png' },
        body: await textImage(['x']),
      });
      expect([response.status, ((await response.json()) as any).error.code]).toEqual([501, 'not_implemented']);
    } finally {
      await off.stop();
    }
  });
});

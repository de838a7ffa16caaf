import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inflatingDocx, minimalDocx, minimalPdf, uploadDocument, type UploadFile } from '../support/documents.js';
import { client, memdClient, startServer, type Client, type TestServer } from '../support/server.js';

let server: TestServer;
let api: Client;

beforeAll(async () => {
  server = await startServer({ env: { MEMD_DOCUMENT_MAX_BYTES: '4096' } });
  api = client(server.url);
  await api.post('/v1/workspaces', { id: 'docs-a', name: 'A' });
  await api.post('/v1/workspaces', { id: 'docs-b', name: 'B' });
});
afterAll(() => server.stop());

/** Uploads a file that is accepted (202) and returns its job once the queue has run. */
async function failedJob(file: UploadFile) {
  const accepted = await uploadDocument(server.url, file);
  expect(accepted.status, JSON.stringify(accepted.body)).toBe(202);
  await server.drainTasks();
  const detail = (await api.get(`/v1/documents/${accepted.body.document.id}`)).body;
  expect(detail.document).toMatchObject({ status: 'failed', page_count: 0, memory_count: 0, original_stored: false });
  expect(detail.job.status).toBe('failed');
  return detail.job;
}

describe('files that cannot be ingested', () => {
  it('an empty, corrupt or text-less file is accepted and its job fails with the reason', async () => {
    expect((await failedJob({ name: 'empty.txt', type: 'text/plain', bytes: '' })).error).toEqual({
      code: 'empty_document',
      message: 'the file is empty',
    });
    const pdf = await failedJob({
      name: 'broken.pdf',
      type: 'application/pdf',
      bytes: '%PDF-1.4\nthis is not a real pdf',
    });
    expect(pdf.error.code).toBe('corrupt_document');
    expect(pdf.error.message).toMatch(/^not a readable PDF/);
    const docx = await failedJob({ name: 'broken.docx', bytes: Buffer.from('PK\u0003\u0004 not a zip archive') });
    expect(docx.error.code).toBe('corrupt_document');
    expect(docx.error.message).toMatch(/^not a readable Word document/);
    const binary = await failedJob({ name: 'binary.txt', bytes: Buffer.from([0x89, 0x50, 0x00, 0x01, 0x02]) });
    expect(binary.error.code).toBe('corrupt_document');
    const blank = await failedJob({ name: 'blank.pdf', bytes: minimalPdf(['', '']) });
    expect(blank.error).toMatchObject({ code: 'no_text', message: expect.stringContaining('OCR') });
    expect((await failedJob({ name: 'spaces.md', bytes: '  \n\n \t\n' })).error.code).toBe('no_text');
    expect((await api.get('/v1/documents/jobs?status=failed')).body.total_count).toBe(6);
  });

  it('an unsupported type is a 415 and stores nothing; a body that is not multipart is a 415 too', async () => {
    const gif = await uploadDocument(
      server.url,
      { name: 'photo.gif', type: 'image/gif', bytes: Buffer.from('GIF89a') },
      { workspace_id: 'docs-a' },
    );
    expect(gif.status).toBe(415);
    expect(gif.body).toMatchObject({ code: 'unsupported_media_type', message: expect.stringContaining('PDF (.pdf)') });
    const unknown = await uploadDocument(
      server.url,
      { name: 'data.bin', bytes: 'plain words' },
      { workspace_id: 'docs-a' },
    );
    expect(unknown.status).toBe(415);
    // A PDF without a useful name or type is recognised by its signature.
    expect(
      (
        await uploadDocument(
          server.url,
          { name: 'blob', bytes: minimalPdf(['Signed page.']) },
          { workspace_id: 'docs-a' },
        )
      ).body.document.document_type,
    ).toBe('pdf');
    const json = await api.post('/v1/documents', { file: 'hello' });
    expect(json.status).toBe(415);
    expect((await api.get('/v1/documents?workspace_id=docs-a')).body.total_count).toBe(1);
  });

  it('a file over MEMD_DOCUMENT_MAX_BYTES is a 413', async () => {
    const big = await uploadDocument(
      server.url,
      { name: 'big.txt', bytes: 'x'.repeat(5000) },
      { workspace_id: 'docs-b' },
    );
    expect(big.status).toBe(413);
    expect(big.body).toMatchObject({ code: 'payload_too_large', message: expect.stringContaining('4096 bytes') });
    expect((await api.get('/v1/documents?workspace_id=docs-b')).body.total_count).toBe(0);
  });

  it('form fields are checked: a missing file, a second file, unknown or malformed fields are 422', async () => {
    const file = { name: 'ok.txt', bytes: 'Fine text.' };
    const cases: Array<[UploadFile | null, Record<string, string>, string]> = [
      [null, { importance: '0.5' }, '/file'],
      [file, { importance: '2' }, '/body/importance'],
      [file, { importance: 'high' }, '/body/importance'],
      [file, { metadata: '{not json' }, '/body/metadata'],
      [file, { metadata: '[1,2]' }, '/body/metadata'],
      [file, { extraction_options: '{"chunk_size": 50}' }, '/body/extraction_options/chunk_size'],
      [file, { extraction_options: '{"ocr": true}' }, '/body/extraction_options/ocr'],
      [file, { retain_original: 'maybe' }, '/body/retain_original'],
      [file, { colour: 'blue' }, '/body/colour'],
    ];
    for (const [upload, fields, path] of cases) {
      const response = await uploadDocument(server.url, upload, { workspace_id: 'docs-b', ...fields });
      expect(response.status, JSON.stringify(fields)).toBe(422);
      expect(
        response.body.details.map((d: { path: string }) => d.path),
        JSON.stringify(fields),
      ).toContain(path);
    }
    const form = new FormData();
    form.append('file', new Blob(['one']), 'one.txt');
    form.append('file', new Blob(['two']), 'two.txt');
    expect(
      (await memdClient(server.url).request('POST', '/v1/documents?workspace_id=docs-b', { body: form })).status,
    ).toBe(422);
    expect((await api.get('/v1/documents?workspace_id=docs-b')).body.total_count).toBe(0);
    expect((await api.post('/v1/documents/search', { query: ' ' })).status).toBe(422);
    expect((await api.post('/v1/documents/search', { query: 'x', limit: 101 })).status).toBe(422);
    expect((await api.get('/v1/documents?workspace_id=nope')).body.total_count).toBe(0);
  });
});

describe('workspace isolation', () => {
  it('nothing of a document in workspace A is seen or changed through workspace B', async () => {
    const { document, job } = (
      await uploadDocument(
        server.url,
        { name: 'secret.txt', bytes: 'The vault code is kept by the night porter.' },
        { workspace_id: 'docs-a' },
      )
    ).body;
    await server.drainTasks();
    const pageId = (await api.get(`/v1/documents/${document.id}/pages?workspace_id=docs-a`)).body.pages[0].id;
    const b = '?workspace_id=docs-b';
    for (const path of [
      `/v1/documents/${document.id}`,
      `/v1/documents/${document.id}/pages`,
      `/v1/documents/${document.id}/pages/${pageId}`,
      `/v1/documents/${document.id}/memories`,
      `/v1/documents/jobs/${job.id}`,
    ]) {
      expect((await api.get(`${path}${b}`)).status, path).toBe(404);
    }
    expect((await api.post(`/v1/documents/jobs/${job.id}/cancel${b}`)).status).toBe(404);
    expect((await api.post(`/v1/documents/${document.id}/reprocess`, { workspace_id: 'docs-b' })).status).toBe(404);
    expect((await api.delete(`/v1/documents/${document.id}${b}&delete_memories=true`)).status).toBe(404);
    expect((await api.get(`/v1/documents${b}`)).body.total_count).toBe(0);
    expect((await api.get(`/v1/documents/jobs${b}`)).body.total_count).toBe(0);
    expect(
      (await api.post('/v1/documents/search', { query: 'vault code night porter', workspace_id: 'docs-b' })).body.pages,
    ).toEqual([]);
    // Workspace resolution follows the usual order: X-Workspace-ID finds it, and A still has all of it.
    expect((await api.get(`/v1/documents/${document.id}`, { 'x-workspace-id': 'docs-a' })).body.document).toMatchObject(
      { status: 'completed', memory_count: 1 },
    );
    const found = await api.post(
      '/v1/documents/search',
      { query: 'vault code night porter', limit: 1 },
      { 'x-workspace-id': 'docs-a' },
    );
    expect(found.body.pages.map((p: { document_id: string }) => p.document_id)).toEqual([document.id]);
  });
});

describe('a document whose extraction outlasts MEMD_DOCUMENT_EXTRACT_TIMEOUT_MS', () => {
  // 5 s: five times what starting the extraction thread takes on an idle machine (it counts against the deadline).
  const deadlineMs = 5_000;
  let slow: TestServer;

  beforeAll(async () => {
    slow = await startServer({ env: { MEMD_DOCUMENT_EXTRACT_TIMEOUT_MS: String(deadlineMs) } });
  });
  afterAll(() => slow.stop());

  it('fails its job with extraction_timeout at the deadline; the next document is read by a fresh thread', async () => {
    const slowApi = client(slow.url);
    // 16 MiB of one-word paragraphs, within the memory bound: half of it (8 MiB) took about ten seconds to parse on an
    // idle machine, twice the deadline; the whole keeps a margin on a faster machine.
    const dense = await inflatingDocx(16 * 1024 * 1024, { paragraph: '<w:p><w:r><w:t>word</w:t></w:r></w:p>' });
    const accepted = await uploadDocument(slow.url, { name: 'dense.docx', bytes: dense });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(202);
    await slow.drainTasks();
    const job = (await slowApi.get(`/v1/documents/jobs/${accepted.body.job.id}`)).body.job;
    expect(job).toMatchObject({
      status: 'failed',
      error: {
        code: 'extraction_timeout',
        message: `text extraction took longer than ${deadlineMs} ms (MEMD_DOCUMENT_EXTRACT_TIMEOUT_MS)`,
      },
    });
    expect((await slowApi.get(`/v1/documents/${accepted.body.document.id}`)).body.document).toMatchObject({
      status: 'failed',
      page_count: 0,
      memory_count: 0,
    });

    const ordinary = await uploadDocument(slow.url, {
      name: 'after.docx',
      bytes: await minimalDocx(['Read after the slow one.']),
    });
    await slow.drainTasks();
    expect((await slowApi.get(`/v1/documents/jobs/${ordinary.body.job.id}`)).body.job.status).toBe('completed');
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { minimalDocx, minimalPdf, uploadDocument } from '../support/documents.js';
import { client, startServer, type Client, type TestServer } from '../support/server.js';

let server: TestServer;
let api: Client;

beforeAll(async () => {
  server = await startServer();
  api = client(server.url);
});
afterAll(() => server.stop());

const PDF_PAGES = [
  'Quarterly report of the Northwind bakery.\nRevenue grew because of sourdough sales in spring.',
  'Zebras at the savanna reserve.\nThe zebra herd crossed the river; stripes help zebras confuse predators.',
  'Appendix: oven maintenance schedule.\nDescale the steam ovens every second Tuesday.',
];

/** Uploads, runs the queued work, and returns the document as GET /v1/documents/{id} shows it. */
async function ingest(file: Parameters<typeof uploadDocument>[1], fields: Record<string, string | string[]> = {}) {
  const accepted = await uploadDocument(server.url, file, fields);
  expect(accepted.status, JSON.stringify(accepted.body)).toBe(202);
  expect(accepted.body.job).toMatchObject({
    status: 'queued',
    document_id: accepted.body.document.id,
    progress: { pages_total: null, chunks_processed: 0, percent: 0 },
  });
  expect(accepted.body.document).toMatchObject({
    status: 'queued',
    job_id: accepted.body.job.id,
    page_count: 0,
    memory_count: 0,
  });
  await server.drainTasks();
  const detail = await api.get(`/v1/documents/${accepted.body.document.id}`);
  expect(detail.status).toBe(200);
  return detail.body as { document: any; job: any };
}

describe('document ingestion', () => {
  it('a text upload goes queued → completed: one page per form feed, chunks become memories through the write pipeline', async () => {
    const text =
      'Ada Lovelace wrote the first published algorithm for the Analytical Engine.\n\nShe worked with Charles Babbage.\fSecond page: the Difference Engine computed polynomial tables.';
    const { document, job } = await ingest(
      { name: 'ada.txt', type: 'text/plain', bytes: text },
      {
        target_context_id: 'history',
        importance: '0.8',
        tags: 'people,computing',
        metadata: '{"collection":"biographies"}',
      },
    );
    expect(document).toMatchObject({
      document_type: 'text',
      mime_type: 'text/plain',
      filename: 'ada.txt',
      status: 'completed',
      page_count: 2,
      memory_count: 2,
      context_id: 'history',
      tags: ['people', 'computing'],
      original_stored: false,
    });
    expect(document.size_bytes).toBe(Buffer.byteLength(text));
    expect(job).toMatchObject({
      status: 'completed',
      error: null,
      progress: {
        pages_total: 2,
        chunks_total: 2,
        chunks_processed: 2,
        memories: 2,
        chunks_deduplicated: 0,
        percent: 100,
      },
    });
    expect(job.started_at).not.toBeNull();
    expect(job.finished_at).not.toBeNull();

    const pages = (await api.get(`/v1/documents/${document.id}/pages`)).body;
    expect(pages.total_count).toBe(2);
    expect(pages.pages.map((p: any) => [p.page_no, p.transcript_model])).toEqual([
      [1, 'plain-text'],
      [2, 'plain-text'],
    ]);
    expect(pages.pages[1].transcript).toBe('Second page: the Difference Engine computed polynomial tables.');

    const memories = (await api.get(`/v1/documents/${document.id}/memories`)).body;
    expect(memories.memories.map((m: any) => m.id)).toEqual(document.memory_ids);
    expect(memories.memories[0]).toMatchObject({
      content:
        'Ada Lovelace wrote the first published algorithm for the Analytical Engine.\n\nShe worked with Charles Babbage.',
      context_id: 'history',
      importance: 0.8,
      tags: ['people', 'computing'],
      source_scope: 'document',
      metadata: {
        collection: 'biographies',
        source: 'document',
        document_id: document.id,
        filename: 'ada.txt',
        page_no: 1,
        chunk_index: 0,
      },
    });
    expect(memories.memories[1].metadata).toMatchObject({ page_no: 2, chunk_index: 1 });
    // They are ordinary memories: readable through /v1/memories and enriched in the background like any other.
    expect((await api.get(`/v1/memories/${document.memory_ids[0]}`)).body.memory.metadata.document_id).toBe(
      document.id,
    );
    const facts = (await api.get(`/v1/memories?context_id=history&limit=50`)).body.memories.filter(
      (m: any) => m.source_memory_id === document.memory_ids[0],
    );
    expect(facts.length).toBe(2);
  });

  it('a PDF keeps its pages (unpdf), each chunk cites its page, and page search finds the right page', async () => {
    const { document } = await ingest({ name: 'report.pdf', type: 'application/pdf', bytes: minimalPdf(PDF_PAGES) });
    expect(document).toMatchObject({ document_type: 'pdf', status: 'completed', page_count: 3, memory_count: 3 });
    const pages = (await api.get(`/v1/documents/${document.id}/pages`)).body.pages;
    expect(pages.map((p: any) => p.transcript_model)).toEqual(['unpdf', 'unpdf', 'unpdf']);
    expect(pages[1].transcript).toContain('stripes help zebras confuse predators');
    const page = await api.get(`/v1/documents/${document.id}/pages/${pages[1].id}`);
    expect(page.body.page).toEqual(pages[1]);
    const memories = (await api.get(`/v1/documents/${document.id}/memories`)).body.memories;
    expect(memories.map((m: any) => m.metadata.page_no)).toEqual([1, 2, 3]);
    expect(memories[1].content).toContain('zebra herd');

    const found = await api.post('/v1/documents/search', { query: 'zebra stripes and predators', limit: 2 });
    expect(found.status).toBe(200);
    expect(found.body).toMatchObject({ query: 'zebra stripes and predators', total_count: 2 });
    expect(found.body.pages[0]).toMatchObject({ id: pages[1].id, document_id: document.id, page_no: 2 });
    expect(found.body.pages[0].relevance_score).toBeGreaterThan(found.body.pages[1].relevance_score);
    const ovens = await api.post('/v1/documents/search', { query: 'descale the steam ovens', doc_ids: [document.id] });
    expect(ovens.body.pages[0].page_no).toBe(3);
    expect((await api.post('/v1/documents/search', { query: 'zebra', doc_ids: ['doc_unknown'] })).body).toEqual({
      pages: [],
      total_count: 0,
      query: 'zebra',
    });
  });

  it('page search finds a page by a passage deep inside it, and returns that passage', async () => {
    const crops = ['tomatoes', 'beans', 'squash', 'lettuce', 'onions', 'carrots', 'peppers', 'cabbage'];
    const filler = Array.from(
      { length: 30 },
      (_, i) =>
        `Row ${i + 1} of the allotment grows ${crops[i % crops.length]} beside the ${crops[(i + 3) % crops.length]}, watered every ${(i % 3) + 1} days.`,
    );
    const deep = 'The spare key to the boathouse hangs behind the lantern in the ferry office.';
    const text = `${filler.join(' ')}\n\n${deep}\fThe ferry timetable changes in winter; the office closes at noon.`;
    const { document } = await ingest({ name: 'allotment.txt', bytes: text });
    expect(document.page_count).toBe(2);
    const found = await api.post('/v1/documents/search', {
      query: 'where is the spare key to the boathouse',
      limit: 2,
      doc_ids: [document.id],
    });
    expect(found.body.pages[0]).toMatchObject({ page_no: 1, passage: { text: deep } });
    // The passage is the last of its page: everything before it is about the allotment.
    expect(found.body.pages[0].passage.index).toBeGreaterThan(3);
    expect(found.body.pages[0].relevance_score).toBeGreaterThan(found.body.pages[1].relevance_score);
  });

  it('Markdown, HTML and Word documents are read as text and cut into pages of page_size characters', async () => {
    const md = await ingest({
      name: 'guide.md',
      bytes: '# Setup\n\nInstall the package.\n\n## Usage\n\nRun the server with npm start.',
    });
    expect(md.document).toMatchObject({ document_type: 'markdown', mime_type: 'text/markdown', page_count: 1 });
    expect((await api.get(`/v1/documents/${md.document.id}/pages`)).body.pages[0]).toMatchObject({
      transcript_model: 'markdown',
      transcript: '# Setup\n\nInstall the package.\n\n## Usage\n\nRun the server with npm start.',
    });

    const html =
      '<html><head><title>x</title><style>p{}</style></head><body><h1>Opening hours</h1><p>Open from 9&nbsp;am to 5&nbsp;pm.</p><script>alert(1)</script><p>Closed on Sundays &amp; holidays.</p></body></html>';
    const page = await ingest({ name: 'hours.html', type: 'text/html', bytes: html });
    const transcript = (await api.get(`/v1/documents/${page.document.id}/pages`)).body.pages[0].transcript;
    expect(transcript).toBe('Opening hours\n\nOpen from 9 am to 5 pm.\n\nClosed on Sundays & holidays.');

    const paragraphs = Array.from(
      { length: 6 },
      (_, i) =>
        `Paragraph ${i + 1} of the handbook explains rule number ${i + 1} for new staff members in some detail.`,
    );
    const docx = await ingest(
      { name: 'handbook.docx', bytes: await minimalDocx(paragraphs) },
      { extraction_options: JSON.stringify({ page_size: 500, chunk_size: 200 }) },
    );
    expect(docx.document).toMatchObject({
      document_type: 'docx',
      status: 'completed',
      extraction_options: { page_size: 500, chunk_size: 200 },
    });
    const docxPages = (await api.get(`/v1/documents/${docx.document.id}/pages`)).body.pages;
    expect(docxPages.length).toBe(2);
    expect(docxPages.every((p: any) => p.transcript.length <= 500 && p.transcript_model === 'mammoth')).toBe(true);
    expect(docxPages.map((p: any) => p.transcript).join('\n\n')).toBe(paragraphs.join('\n\n'));
    const chunks = (await api.get(`/v1/documents/${docx.document.id}/memories`)).body.memories;
    // Page 1 holds paragraphs 1-5, page 2 paragraph 6; two paragraphs fit in a chunk, and no chunk spans pages.
    expect(chunks.map((m: any) => [m.metadata.page_no, m.content.length <= 200])).toEqual([
      [1, true],
      [1, true],
      [1, true],
      [2, true],
    ]);
    expect(chunks.map((m: any) => m.content).join('\n\n')).toBe(paragraphs.join('\n\n'));
  });

  it('lists documents and jobs newest first, filtered and paginated', async () => {
    const a = (await uploadDocument(server.url, { name: 'a.txt', bytes: 'Alpha notes about list filters.' })).body;
    const b = (
      await uploadDocument(server.url, { name: 'b.pdf', bytes: minimalPdf(['Beta page about list filters.']) })
    ).body;
    const queued = await api.get('/v1/documents?status=queued');
    expect(queued.body.documents.map((d: any) => d.id)).toEqual([b.document.id, a.document.id]);
    expect(queued.body).toMatchObject({ total_count: 2, limit: 50, offset: 0 });
    await server.drainTasks();
    const pdfs = await api.get('/v1/documents?document_type=pdf&status=completed&limit=1');
    expect(pdfs.body.documents.map((d: any) => d.id)).toEqual([b.document.id]);
    expect(pdfs.body.total_count).toBe(2);
    expect((await api.get('/v1/documents?status=queued')).body.total_count).toBe(0);
    const jobs = await api.get(`/v1/documents/jobs?document_id=${a.document.id}`);
    expect(jobs.body).toMatchObject({ total_count: 1, jobs: [{ id: a.job.id, status: 'completed' }] });
    expect((await api.get('/v1/documents/jobs?status=completed&limit=2&offset=1')).body.jobs.length).toBe(2);
    expect((await api.get(`/v1/documents/jobs/${b.job.id}`)).body.job).toMatchObject({
      id: b.job.id,
      status: 'completed',
      progress: { percent: 100 },
    });
    expect((await api.get('/v1/documents?limit=0')).status).toBe(422);
    expect((await api.get('/v1/documents?status=done')).status).toBe(422);
  });
});

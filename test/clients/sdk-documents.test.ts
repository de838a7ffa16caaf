import { describe, expect, it } from 'vitest';
import { expectFields } from './fields.js';
import { useClientServer } from './server.js';

const DOCUMENT_FIELDS = [
  'id',
  'workspace_id',
  'filename',
  'document_type',
  'content_hash',
  'size_bytes',
  'status',
  'target_context_id',
  'page_count',
  'retain_original',
  'metadata',
  'created_at',
];
const JOB_FIELDS = [
  'id',
  'workspace_id',
  'document_ids',
  'status',
  'progress_percent',
  'documents_processed',
  'total_memories_created',
  'errors',
  'created_at',
];

/** The document calls of the SDK (v0.0.6), as it sends them. */
describe('SDK: documents', () => {
  const t = useClientServer({ workspaceId: 'sdk-docs' });

  const upload = async () => {
    // uploadDocument(file, name, { targetContextId, chunkingStrategy, chunkSize, chunkOverlap, importance, retainOriginal })
    const form = new FormData();
    form.append(
      'file',
      new Blob(['Backups run nightly at two.\n\nRestores are tested monthly.'], { type: 'text/plain' }),
      'ops.txt',
    );
    form.append('target_context_id', 'ops');
    form.append('chunking_strategy', 'paragraph');
    form.append('chunk_size', '500');
    form.append('chunk_overlap', '50');
    form.append('importance', '0.7');
    form.append('retain_original', 'true');
    const res = await t.sdk.send('POST', '/v1/documents', form);
    expect(res.status, res.errorMessage).toBe(202);
    expectFields(res.body.document, DOCUMENT_FIELDS, 'document');
    expectFields(res.body.job, JOB_FIELDS, 'job');
    return res.body as { document: { id: string }; job: { id: string } };
  };

  it('uploadDocument with the SDK’s form fields; getJob, listJobs, listDocuments, getDocument, getDocumentPages, searchDocumentPages', async () => {
    const { document, job } = await upload();
    expect((await t.sdk.call({ method: 'GET', path: `/v1/documents/${document.id}` })).body.document).toMatchObject({
      target_context_id: 'ops',
      extraction_options: { chunk_size: 500 },
    });
    await t.server.drainTasks();

    const done = await t.sdk.call({ method: 'GET', path: `/v1/documents/jobs/${job.id}` });
    expect(done.status, done.errorMessage).toBe(200);
    expectFields(done.body.job, JOB_FIELDS, 'job');
    expect(done.body.job).toMatchObject({
      status: 'completed',
      progress_percent: 100,
      document_ids: [document.id],
      documents_processed: 1,
      errors: [],
    });
    expect(done.body.job.total_memories_created).toBeGreaterThan(0);
    const jobs = await t.sdk.call({ method: 'GET', path: '/v1/documents/jobs?status=completed&limit=10' });
    expect(jobs.body.jobs.map((j: { id: string }) => j.id)).toContain(job.id);

    const listed = await t.sdk.call({ method: 'GET', path: '/v1/documents?status=completed&limit=10&offset=0' });
    expect(listed.body.documents.map((d: { id: string }) => d.id)).toContain(document.id);
    expect(listed.body.total_count).toBeGreaterThan(0);

    const pages = await t.sdk.call({ method: 'GET', path: `/v1/documents/${document.id}/pages` });
    expectFields(pages.body, ['document_id', 'pages', 'total_count'], 'page list');
    expectFields(pages.body.pages[0], ['id', 'document_id', 'workspace_id', 'page_no', 'transcript'], 'page');

    // searchDocumentPages(query) with its default limit
    const found = await t.sdk.call({
      method: 'POST',
      path: '/v1/documents/search',
      body: { query: 'when do backups run', limit: 10 },
    });
    expect(found.status, found.errorMessage).toBe(200);
    expectFields(found.body, ['pages', 'total_count', 'query'], 'page search');
    expect(found.body.pages[0].document_id).toBe(document.id);
  });

  it('reprocessDocument with the flat fields; the image of a page is a 501', async () => {
    const { document } = await upload();
    await t.server.drainTasks();
    const again = await t.sdk.call({
      method: 'POST',
      path: `/v1/documents/${document.id}/reprocess`,
      body: {
        target_context_id: 'archive',
        chunking_strategy: 'paragraph',
        chunk_size: 300,
        chunk_overlap: 0,
        importance: 0.4,
      },
    });
    expect(again.status, again.errorMessage).toBe(202);
    expect(again.body.document).toMatchObject({
      target_context_id: 'archive',
      importance: 0.4,
      extraction_options: { chunk_size: 300 },
    });
    await t.server.drainTasks();

    const page = (await t.sdk.call({ method: 'GET', path: `/v1/documents/${document.id}/pages` })).body.pages[0]
      .id as string;
    // getPageImage: no content type sent
    const image = await t.sdk.send('GET', `/v1/documents/${document.id}/pages/${page}/image`);
    expect(image.status).toBe(501);
    expect(image.errorMessage).toMatch(/transcript/);
  });
});

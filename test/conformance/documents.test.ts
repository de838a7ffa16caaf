import { afterAll, describe, expect, it } from 'vitest';
import type { SqlStorage } from '../../src/storage/sql/storage.js';
import type { DocumentRecord, IngestionJob, NewDocumentPage } from '../../src/storage/types.js';
import { axisVector, id, memory, workspace } from '../support/records.js';
import { storageBackends } from '../support/storage-backends.js';

const DIMS = 8;
const T0 = '2026-01-01T00:00:00.000Z';
const at = (minutes: number) => new Date(Date.parse(T0) + minutes * 60_000).toISOString();

function job(workspaceId: string, documentId: string, overrides: Partial<IngestionJob> = {}): IngestionJob {
  return {
    id: id('job'),
    workspace_id: workspaceId,
    document_id: documentId,
    status: 'queued',
    extraction_options: { chunk_size: 1000 },
    pages_total: null,
    chunks_total: null,
    chunks_done: 0,
    memories_linked: 0,
    chunks_deduplicated: 0,
    error_code: null,
    error_message: null,
    page_errors: [],
    created_at: T0,
    started_at: null,
    finished_at: null,
    updated_at: T0,
    ...overrides,
  };
}

function documentRecord(workspaceId: string, jobId: string, overrides: Partial<DocumentRecord> = {}): DocumentRecord {
  return {
    id: id('doc'),
    workspace_id: workspaceId,
    tenant_id: 'default',
    filename: 'notes.txt',
    mime_type: 'text/plain',
    document_type: 'text',
    size_bytes: 42,
    content_hash: 'abc',
    context_id: '_default',
    importance: 0.5,
    tags: ['t'],
    metadata: { source: { nested: true } },
    extraction_options: { chunk_size: 1000 },
    retain_original: false,
    current_job_id: jobId,
    created_at: T0,
    updated_at: T0,
    ...overrides,
  };
}

/** A page with one passage per axis (none for a page without text), each passage's text naming its axis. */
function page(
  workspaceId: string,
  documentId: string,
  pageNo: number,
  transcript: string,
  ...axes: number[]
): NewDocumentPage {
  return {
    id: id('page'),
    workspace_id: workspaceId,
    document_id: documentId,
    page_no: pageNo,
    transcript,
    transcript_model: 'unpdf',
    transcript_confidence: null,
    created_at: T0,
    passages:
      transcript === ''
        ? []
        : axes.map((axis) => ({ text: `${transcript} @${axis}`, embedding: axisVector(DIMS, axis) })),
  };
}

describe.each(storageBackends())('document storage conformance: $name', (backend) => {
  afterAll(() => backend.teardown());

  async function fresh(): Promise<SqlStorage> {
    const storage = await backend.open(DIMS);
    await storage.workspaces.create(workspace('ws_a'));
    await storage.workspaces.create(workspace('ws_b'));
    return storage;
  }

  /** A document with its first job, inserted the way the service does (one transaction). */
  async function addDocument(
    s: SqlStorage,
    workspaceId: string,
    overrides: Partial<DocumentRecord> = {},
    jobOverrides: Partial<IngestionJob> = {},
  ) {
    const docId = overrides.id ?? id('doc');
    const first = job(workspaceId, docId, jobOverrides);
    const doc = documentRecord(workspaceId, first.id, { ...overrides, id: docId });
    await s.transaction(async (tx) => {
      await tx.documents.insert(doc);
      await tx.documents.createJob(first);
    });
    return { doc, job: first };
  }

  it('round-trips a document with its current job status, counts and stored bytes, within its workspace', async () => {
    const s = await fresh();
    const { doc } = await addDocument(s, 'ws_a', { retain_original: true, size_bytes: 5_000_000_000 });
    const bytes = new Uint8Array([0, 1, 2, 255, 0, 37]);
    await s.documents.putOriginal('ws_a', doc.id, bytes);
    expect(await s.documents.get('ws_a', doc.id)).toEqual({
      ...doc,
      status: 'queued',
      page_count: 0,
      memory_count: 0,
      original_stored: true,
    });
    expect(Array.from((await s.documents.getOriginal('ws_a', doc.id))!)).toEqual(Array.from(bytes));
    expect(await s.documents.get('ws_b', doc.id)).toBeNull();
    expect(await s.documents.getOriginal('ws_b', doc.id)).toBeNull();
    await s.documents.deleteOriginal('ws_a', doc.id);
    expect((await s.documents.get('ws_a', doc.id))?.original_stored).toBe(false);
    await s.close();
  });

  it('lists newest first, filtered by the current job status and the type, with a total', async () => {
    const s = await fresh();
    const old = await addDocument(s, 'ws_a', { created_at: at(1), document_type: 'pdf' }, { status: 'completed' });
    const mid = await addDocument(s, 'ws_a', { created_at: at(2) }, { status: 'failed' });
    const fresh1 = await addDocument(s, 'ws_a', { created_at: at(3) });
    await addDocument(s, 'ws_b', { created_at: at(4) });
    const all = await s.documents.list('ws_a', { limit: 10, offset: 0 });
    expect(all.documents.map((d) => d.id)).toEqual([fresh1.doc.id, mid.doc.id, old.doc.id]);
    expect(all.total).toBe(3);
    const page2 = await s.documents.list('ws_a', { limit: 1, offset: 1 });
    expect([page2.documents.map((d) => d.id), page2.total]).toEqual([[mid.doc.id], 3]);
    expect(
      (await s.documents.list('ws_a', { status: 'failed', limit: 10, offset: 0 })).documents.map((d) => d.id),
    ).toEqual([mid.doc.id]);
    const pdfs = await s.documents.list('ws_a', { documentType: 'pdf', limit: 10, offset: 0 });
    expect([pdfs.documents.map((d) => d.id), pdfs.total]).toEqual([[old.doc.id], 1]);

    // A new current job changes what the document's status is.
    const second = job('ws_a', old.doc.id, { created_at: at(5) });
    await s.documents.createJob(second);
    await s.documents.update('ws_a', old.doc.id, {
      current_job_id: second.id,
      extraction_options: { chunk_size: 300 },
      updated_at: at(5),
    });
    expect(await s.documents.get('ws_a', old.doc.id)).toMatchObject({
      status: 'queued',
      extraction_options: { chunk_size: 300 },
      updated_at: at(5),
    });
    await s.close();
  });

  it('moves a job only from the statuses allowed, and lists jobs by status and document', async () => {
    const s = await fresh();
    const { doc, job: first } = await addDocument(s, 'ws_a');
    const started = await s.documents.updateJob(
      'ws_a',
      first.id,
      { status: 'processing', started_at: at(1), updated_at: at(1) },
      ['queued'],
    );
    expect(started).toMatchObject({ status: 'processing', started_at: at(1) });
    expect(await s.documents.updateJob('ws_a', first.id, { status: 'processing' }, ['queued'])).toBeNull();
    expect(await s.documents.updateJob('ws_b', first.id, { chunks_done: 3 })).toBeNull();
    const pageErrors = [{ page_no: 2, code: 'ocr_timeout', message: 'too slow' }];
    const progressed = await s.documents.updateJob('ws_a', first.id, {
      pages_total: 2,
      page_errors: pageErrors,
      chunks_total: 5,
      chunks_done: 3,
      memories_linked: 2,
      chunks_deduplicated: 1,
    });
    expect(progressed).toMatchObject({
      pages_total: 2,
      page_errors: pageErrors,
      chunks_total: 5,
      chunks_done: 3,
      memories_linked: 2,
      chunks_deduplicated: 1,
    });
    await s.documents.updateJob(
      'ws_a',
      first.id,
      { status: 'failed', error_code: 'corrupt_document', error_message: 'bad', finished_at: at(2) },
      ['processing'],
    );
    expect(await s.documents.getJob('ws_a', first.id)).toEqual({
      ...first,
      status: 'failed',
      started_at: at(1),
      pages_total: 2,
      page_errors: pageErrors,
      chunks_total: 5,
      chunks_done: 3,
      memories_linked: 2,
      chunks_deduplicated: 1,
      error_code: 'corrupt_document',
      error_message: 'bad',
      finished_at: at(2),
      updated_at: at(1),
    });
    const again = job('ws_a', doc.id, { created_at: at(3) });
    await s.documents.createJob(again);
    const other = await addDocument(s, 'ws_a', {}, { created_at: at(4) });
    expect((await s.documents.listJobs('ws_a', { limit: 10, offset: 0 })).jobs.map((j) => j.id)).toEqual([
      other.job.id,
      again.id,
      first.id,
    ]);
    expect(
      (await s.documents.listJobs('ws_a', { status: 'failed', limit: 10, offset: 0 })).jobs.map((j) => j.id),
    ).toEqual([first.id]);
    const ofDoc = await s.documents.listJobs('ws_a', { documentId: doc.id, limit: 1, offset: 0 });
    expect([ofDoc.jobs.map((j) => j.id), ofDoc.total]).toEqual([[again.id], 2]);
    expect((await s.documents.listJobs('ws_b', { limit: 10, offset: 0 })).total).toBe(0);
    await s.close();
  });

  it('replaces pages, lists them in order, and searches them by cosine similarity within the workspace', async () => {
    const s = await fresh();
    const a = (await addDocument(s, 'ws_a')).doc;
    const b = (await addDocument(s, 'ws_a')).doc;
    const foreign = (await addDocument(s, 'ws_b')).doc;
    await s.documents.replacePages('ws_a', a.id, [
      page('ws_a', a.id, 2, 'second', 1),
      page('ws_a', a.id, 1, 'first', 0),
      page('ws_a', a.id, 3, ''),
    ]);
    await s.documents.replacePages('ws_a', b.id, [page('ws_a', b.id, 1, 'other', 3)]);
    await s.documents.replacePages('ws_b', foreign.id, [page('ws_b', foreign.id, 1, 'foreign', 0)]);

    const listed = await s.documents.listPages('ws_a', a.id, {});
    expect(listed.pages.map((p) => [p.page_no, p.transcript])).toEqual([
      [1, 'first'],
      [2, 'second'],
      [3, ''],
    ]);
    expect(listed.total).toBe(3);
    const second = await s.documents.listPages('ws_a', a.id, { limit: 1, offset: 1 });
    expect([second.pages.map((p) => p.page_no), second.total]).toEqual([[2], 3]);
    const one = listed.pages[0]!;
    expect(await s.documents.getPage('ws_a', a.id, one.id)).toEqual(one);
    expect(await s.documents.getPage('ws_a', b.id, one.id)).toBeNull();
    expect(await s.documents.getPage('ws_b', a.id, one.id)).toBeNull();
    expect((await s.documents.get('ws_a', a.id))?.page_count).toBe(3);

    const found = await s.documents.searchPages('ws_a', axisVector(DIMS, 0, 0.2), { k: 10 });
    // Nearest first; the page without text is never a hit; ws_b's page is not seen.
    expect(found.map((f) => f.page.transcript)).toEqual(['first', 'second', 'other']);
    expect(found[0]!.score).toBeGreaterThan(found[1]!.score);
    expect(found[0]!.score).toBeCloseTo(1 / Math.hypot(1, 0.2), 5);
    expect(
      (await s.documents.searchPages('ws_a', axisVector(DIMS, 0), { k: 1 })).map((f) => f.page.transcript),
    ).toEqual(['first']);
    expect(
      (await s.documents.searchPages('ws_a', axisVector(DIMS, 0), { k: 10, documentIds: [b.id] })).map(
        (f) => f.page.transcript,
      ),
    ).toEqual(['other']);
    expect(await s.documents.searchPages('ws_a', axisVector(DIMS, 0), { k: 10, documentIds: [] })).toEqual([]);

    await s.documents.replacePages('ws_a', a.id, [page('ws_a', a.id, 1, 'rewritten', 0)]);
    expect((await s.documents.listPages('ws_a', a.id, {})).pages.map((p) => p.transcript)).toEqual(['rewritten']);
    // The passages of the replaced pages went with them.
    expect(
      (await s.documents.searchPages('ws_a', axisVector(DIMS, 1), { k: 10 })).map((f) => f.passage.text).sort(),
    ).toEqual(['other @3', 'rewritten @0']);
    await s.close();
  });

  it('scores a page by its best passage (max-sim), once per page, and returns that passage', async () => {
    const s = await fresh();
    const doc = (await addDocument(s, 'ws_a')).doc;
    // "deep" is about axis 5 only in its third passage; "shallow" has one passage near axis 5.
    const deep = page('ws_a', doc.id, 1, 'deep', 1, 2, 5, 3);
    const shallow = page('ws_a', doc.id, 2, 'shallow', 6);
    await s.documents.replacePages('ws_a', doc.id, [
      deep,
      { ...shallow, passages: [{ text: 'shallow @6~5', embedding: axisVector(DIMS, 5, 0.5) }] },
    ]);
    const found = await s.documents.searchPages('ws_a', axisVector(DIMS, 5), { k: 10 });
    expect(found.map((f) => [f.page.page_no, f.passage])).toEqual([
      [1, { index: 2, text: 'deep @5' }],
      [2, { index: 0, text: 'shallow @6~5' }],
    ]);
    expect(found[0]!.score).toBeCloseTo(1, 5);
    expect(found[1]!.score).toBeCloseTo(1 / Math.hypot(1, 0.5), 5);
    expect((await s.documents.searchPages('ws_a', axisVector(DIMS, 5), { k: 1 })).map((f) => f.page.id)).toEqual([
      deep.id,
    ]);
    await s.close();
  });

  it('links memories in page order, moves links to a newer job, and loses them with the memory or the document', async () => {
    const s = await fresh();
    const { doc, job: first } = await addDocument(s, 'ws_a');
    const [m1, m2, m3] = [0, 1, 2].map((i) => memory('ws_a', `chunk ${i}`, axisVector(DIMS, i)));
    await s.memories.insert([m1!, m2!, m3!]);
    const link = (memoryId: string, jobId: string, pageNo: number, chunk: number) => ({
      document_id: doc.id,
      memory_id: memoryId,
      workspace_id: 'ws_a',
      job_id: jobId,
      page_no: pageNo,
      chunk_index: chunk,
    });
    await s.documents.linkMemories([
      link(m2!.id, first.id, 2, 2),
      link(m1!.id, first.id, 1, 1),
      link(m3!.id, first.id, 2, 3),
    ]);
    // The same memory again in the same run keeps its first place.
    await s.documents.linkMemories([link(m1!.id, first.id, 9, 9)]);
    expect(await s.documents.linkedMemoryIds('ws_a', doc.id, {})).toEqual({ ids: [m1!.id, m2!.id, m3!.id], total: 3 });
    expect(await s.documents.linkedMemoryIds('ws_a', doc.id, { limit: 1, offset: 1 })).toEqual({
      ids: [m2!.id],
      total: 3,
    });
    expect((await s.documents.linkedMemoryIds('ws_b', doc.id, {})).total).toBe(0);

    const second = job('ws_a', doc.id);
    await s.documents.createJob(second);
    await s.documents.linkMemories([link(m3!.id, second.id, 1, 0)]);
    expect((await s.documents.linkedMemoryIds('ws_a', doc.id, {})).ids).toEqual([m3!.id, m1!.id, m2!.id]);
    expect((await s.documents.linkedMemoryIds('ws_a', doc.id, { exceptJobId: second.id })).ids).toEqual([
      m1!.id,
      m2!.id,
    ]);

    await s.memories.hardDelete('ws_a', [m1!.id]);
    expect((await s.documents.get('ws_a', doc.id))?.memory_count).toBe(2);
    expect(await s.documents.delete('ws_b', doc.id)).toBe(false);
    expect(await s.documents.delete('ws_a', doc.id)).toBe(true);
    expect(await s.documents.get('ws_a', doc.id)).toBeNull();
    expect(await s.documents.getJob('ws_a', first.id)).toBeNull();
    expect((await s.documents.linkedMemoryIds('ws_a', doc.id, {})).total).toBe(0);
    // The memories themselves stay.
    expect((await s.memories.getMany('ws_a', [m2!.id, m3!.id])).length).toBe(2);
    await s.close();
  });

  it('a workspace delete takes its documents, bytes, pages, jobs and links', async () => {
    const s = await fresh();
    const { doc, job: first } = await addDocument(s, 'ws_a');
    const kept = (await addDocument(s, 'ws_b')).doc;
    await s.documents.putOriginal('ws_a', doc.id, new Uint8Array([1, 2, 3]));
    await s.documents.replacePages('ws_a', doc.id, [page('ws_a', doc.id, 1, 'text', 0)]);
    const m = memory('ws_a', 'chunk', axisVector(DIMS, 0));
    await s.memories.insert([m]);
    await s.documents.linkMemories([
      { document_id: doc.id, memory_id: m.id, workspace_id: 'ws_a', job_id: first.id, page_no: 1, chunk_index: 0 },
    ]);
    await s.transaction((tx) => tx.workspaces.delete('ws_a'));
    expect(await s.documents.get('ws_a', doc.id)).toBeNull();
    expect(await s.documents.getOriginal('ws_a', doc.id)).toBeNull();
    expect((await s.documents.listPages('ws_a', doc.id, {})).total).toBe(0);
    expect((await s.documents.listJobs('ws_a', { limit: 10, offset: 0 })).total).toBe(0);
    expect((await s.documents.linkedMemoryIds('ws_a', doc.id, {})).total).toBe(0);
    expect(await s.documents.get('ws_b', kept.id)).not.toBeNull();
    await s.close();
  });
});

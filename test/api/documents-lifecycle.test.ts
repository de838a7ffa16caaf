import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { minimalPdf, uploadDocument } from '../support/documents.js';
import { HoldableEmbedder } from '../support/holdable-embedder.js';
import { client, startServer, type Client, type TestServer } from '../support/server.js';
import { testBackend } from '../support/test-database.js';

/** `n` paragraphs of about 150 characters, each its own chunk at chunk_size 200, all different. */
const paragraphs = (n: number, topic = 'inventory') =>
  Array.from(
    { length: n },
    (_, i) =>
      `Record ${i + 1} of the ${topic} ledger: shelf ${i % 7} holds ${i * 3 + 1} crates of item ${i + 1}, checked by clerk number ${i + 11} on a quiet afternoon.`,
  ).join('\n\n');
const SMALL_CHUNKS = JSON.stringify({ chunk_size: 200 });

let server: TestServer;
let api: Client;
const embedder = new HoldableEmbedder();

beforeAll(async () => {
  server = await startServer({ embedder });
  api = client(server.url);
});
afterAll(() => server.stop());

async function completed(name: string, text: string, fields: Record<string, string> = {}) {
  const { document } = (
    await uploadDocument(server.url, { name, bytes: text }, { extraction_options: SMALL_CHUNKS, ...fields })
  ).body;
  await server.drainTasks();
  return (await api.get(`/v1/documents/${document.id}`)).body as { document: any; job: any };
}

describe('cancel', () => {
  it('a queued job is cancelled before it runs; a finished one cannot be', async () => {
    const { document, job } = (await uploadDocument(server.url, { name: 'q.txt', bytes: paragraphs(3) })).body;
    const cancelled = await api.post(`/v1/documents/jobs/${job.id}/cancel`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.job).toMatchObject({ id: job.id, status: 'cancelled', started_at: null });
    expect(cancelled.body.job.finished_at).not.toBeNull();
    await server.drainTasks();
    const detail = (await api.get(`/v1/documents/${document.id}`)).body;
    expect(detail.document).toMatchObject({
      status: 'cancelled',
      page_count: 0,
      memory_count: 0,
      original_stored: false,
    });
    expect((await api.post(`/v1/documents/jobs/${job.id}/cancel`)).status).toBe(409);
    expect((await api.post('/v1/documents/jobs/job_unknown/cancel')).status).toBe(404);
  });

  it('a processing job stops between chunks and keeps what it wrote', async () => {
    const { document, job } = (
      await uploadDocument(
        server.url,
        { name: 'long.txt', bytes: paragraphs(40) },
        { extraction_options: SMALL_CHUNKS },
      )
    ).body;
    // Embedding calls of the job: 1 for the pages, then one per step of 16 chunks; hold the second step.
    const hold = embedder.holdCall(3);
    const draining = server.drainTasks();
    await hold.reached;
    const running = (await api.get(`/v1/documents/jobs/${job.id}`)).body.job;
    expect(running).toMatchObject({
      status: 'processing',
      progress: { chunks_total: 40, chunks_processed: 16, memories: 16 },
    });
    expect((await api.get('/v1/documents?status=processing')).body.documents.map((d: any) => d.id)).toEqual([
      document.id,
    ]);
    expect((await api.post(`/v1/documents/jobs/${job.id}/cancel`)).body.job.status).toBe('cancelled');
    hold.release();
    await draining;
    const after = (await api.get(`/v1/documents/${document.id}`)).body;
    // The step in flight finished; no step began after the cancel.
    expect(after.job).toMatchObject({
      status: 'cancelled',
      progress: { chunks_total: 40, chunks_processed: 32, memories: 32 },
    });
    expect(after.document).toMatchObject({ status: 'cancelled', memory_count: 32 });
    expect((await api.get(`/v1/documents/${document.id}/memories?limit=1000`)).body.total_count).toBe(32);
  });
});

describe('reprocess', () => {
  it('runs a new job: unchanged chunks keep their memories, changed ones replace theirs, the old job stays listed', async () => {
    const first = await completed('ledger.txt', paragraphs(5, 'reprocessing'));
    expect(first.document.memory_count).toBe(5);
    const before = first.document.memory_ids as string[];
    const firstPages = (await api.get(`/v1/documents/${first.document.id}/pages`)).body.pages;

    const same = await api.post(`/v1/documents/${first.document.id}/reprocess`, {});
    expect(same.status).toBe(202);
    expect(same.body.job).toMatchObject({ status: 'queued', extraction_options: { chunk_size: 200, page_size: 3000 } });
    expect(same.body.document).toMatchObject({ status: 'queued', job_id: same.body.job.id });
    // While it is queued, a second reprocess is refused.
    expect((await api.post(`/v1/documents/${first.document.id}/reprocess`, {})).status).toBe(409);
    await server.drainTasks();
    const again = (await api.get(`/v1/documents/${first.document.id}`)).body;
    expect(again.job).toMatchObject({
      id: same.body.job.id,
      status: 'completed',
      progress: { memories: 5, chunks_deduplicated: 0 },
    });
    expect(again.document.memory_ids).toEqual(before);
    // Without the original (not retained) the stored pages are cut again, not extracted again.
    expect((await api.get(`/v1/documents/${first.document.id}/pages`)).body.pages).toEqual(firstPages);

    const wider = await api.post(`/v1/documents/${first.document.id}/reprocess`, {
      extraction_options: { chunk_size: 300 },
    });
    expect(wider.body.job.extraction_options).toEqual({ chunk_size: 300, page_size: 3000 });
    await server.drainTasks();
    const rechunked = (await api.get(`/v1/documents/${first.document.id}`)).body;
    expect(rechunked.document).toMatchObject({
      status: 'completed',
      memory_count: 3,
      extraction_options: { chunk_size: 300 },
    });
    // Chunks of two paragraphs are new memories, the one-paragraph chunks they replace are gone; the last one is unchanged.
    expect(rechunked.document.memory_ids.filter((id: string) => before.includes(id))).toEqual([before[4]]);
    for (const id of before.slice(0, 4)) expect((await api.get(`/v1/memories/${id}`)).status).toBe(404);
    const jobs = (await api.get(`/v1/documents/jobs?document_id=${first.document.id}`)).body.jobs;
    expect(jobs.map((j: any) => j.status)).toEqual(['completed', 'completed', 'completed']);
  });

  it('with the original retained, pages are extracted again; a failed upload without it cannot be reprocessed', async () => {
    const kept = (
      await uploadDocument(
        server.url,
        { name: 'kept.pdf', bytes: minimalPdf(['Kept page one.', 'Kept page two.']) },
        { retain_original: 'true' },
      )
    ).body;
    await server.drainTasks();
    const oldPages = (await api.get(`/v1/documents/${kept.document.id}/pages`)).body.pages;
    expect((await api.get(`/v1/documents/${kept.document.id}`)).body.document).toMatchObject({
      status: 'completed',
      original_stored: true,
      retain_original: true,
    });
    await api.post(`/v1/documents/${kept.document.id}/reprocess`);
    await server.drainTasks();
    const newPages = (await api.get(`/v1/documents/${kept.document.id}/pages`)).body.pages;
    expect(newPages.map((p: any) => p.transcript)).toEqual(oldPages.map((p: any) => p.transcript));
    expect(newPages[0].id).not.toBe(oldPages[0].id);

    const broken = (await uploadDocument(server.url, { name: 'broken.pdf', bytes: '%PDF-1.7 not really' })).body;
    await server.drainTasks();
    const refused = await api.post(`/v1/documents/${broken.document.id}/reprocess`);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toContain('upload the file again');
    expect((await api.post('/v1/documents/doc_unknown/reprocess')).status).toBe(404);
    expect(
      (await api.post(`/v1/documents/${broken.document.id}/reprocess`, { extraction_options: { chunk_size: 10 } }))
        .status,
    ).toBe(422);
  });
});

describe('delete', () => {
  it('without delete_memories the memories stay (citing the document); with it they go, facts included', async () => {
    const keep = await completed('keep.txt', paragraphs(2, 'archive'));
    expect((await api.delete(`/v1/documents/${keep.document.id}`)).status).toBe(204);
    expect((await api.get(`/v1/documents/${keep.document.id}`)).status).toBe(404);
    expect((await api.get(`/v1/documents/jobs/${keep.job.id}`)).status).toBe(404);
    for (const id of keep.document.memory_ids)
      expect((await api.get(`/v1/memories/${id}`)).body.memory.metadata.document_id).toBe(keep.document.id);

    // Two sentences per chunk: enrichment derives facts from each.
    const drop = await completed(
      'drop.txt',
      'The shredder room is on the second floor. Only managers may enter it after six in the evening.\n\nThe shredder jams on glossy paper. Maintenance clears it every Friday morning before nine.',
    );
    const facts = (await api.get('/v1/memories?limit=500')).body.memories.filter((m: any) =>
      drop.document.memory_ids.includes(m.source_memory_id),
    );
    expect(facts.length).toBeGreaterThan(0);
    expect((await api.delete(`/v1/documents/${drop.document.id}?delete_memories=true`)).status).toBe(204);
    for (const id of [...drop.document.memory_ids, ...facts.map((f: any) => f.id)])
      expect((await api.get(`/v1/memories/${id}`)).status).toBe(404);
    expect((await api.delete(`/v1/documents/${drop.document.id}`)).status).toBe(404);
  });

  it('with delete_memories while a step writes: the step’s memories go too, none is left citing nothing', async () => {
    const { document } = (
      await uploadDocument(
        server.url,
        { name: 'busy.txt', bytes: paragraphs(40, 'warehouse') },
        { extraction_options: SMALL_CHUNKS },
      )
    ).body;
    // As above: the second step of 16 chunks is held in its embedding, its first step's 16 memories linked.
    const hold = embedder.holdCall(3);
    const draining = server.drainTasks();
    await hold.reached;
    expect((await api.delete(`/v1/documents/${document.id}?delete_memories=true`)).status).toBe(204);
    // The held step then writes its 16 memories, and finds the document gone when it links them.
    hold.release();
    await draining;
    // No chunk (citing the document) and no fact of one (holding its text) is left.
    const left = (await api.get('/v1/memories?limit=500&status=all')).body.memories.filter(
      (m: any) => m.metadata.document_id === document.id || String(m.content).includes('warehouse ledger'),
    );
    expect(left).toEqual([]);
  });
});

describe('restart', () => {
  it('an ingestion interrupted by a stop resumes on the next start and writes every chunk once', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'memd-doc-restart-'));
    try {
      const holdable = new HoldableEmbedder();
      // A short lease: on Postgres the job's task stays leased to the stopped server until the lease runs out
      // (another node may hold it); SQLite hands every lease back at the next start.
      const first = await startServer({ dataDir, embedder: holdable, env: { MEMD_TASK_LEASE_MS: '1000' } });
      const { document, job } = (
        await uploadDocument(
          first.url,
          { name: 'big.txt', bytes: paragraphs(40, 'warehouse') },
          { extraction_options: SMALL_CHUNKS },
        )
      ).body;
      const hold = holdable.holdCall(3);
      void first.drainTasks();
      await hold.reached;
      // The process goes away in the middle of the job: the held step never finishes.
      await first.stop();

      const second = await startServer({ dataDir });
      try {
        const again = client(second.url);
        expect((await again.get(`/v1/documents/jobs/${job.id}`)).body.job).toMatchObject({
          status: 'processing',
          progress: { chunks_processed: 16 },
        });
        if (testBackend() === 'postgres') await sleep(1_100);
        await second.drainTasks();
        const detail = (await again.get(`/v1/documents/${document.id}`)).body;
        expect(detail.job).toMatchObject({
          status: 'completed',
          progress: { chunks_total: 40, chunks_processed: 40, memories: 40, chunks_deduplicated: 0 },
        });
        expect(detail.document).toMatchObject({ status: 'completed', memory_count: 40, original_stored: false });
        const memories = (await again.get(`/v1/documents/${document.id}/memories?limit=1000`)).body.memories;
        expect(new Set(memories.map((m: any) => m.content)).size).toBe(40);
        const all = (await again.get('/v1/memories?limit=500')).body.memories.filter(
          (m: any) => m.metadata.document_id === document.id && m.source_memory_id === null,
        );
        expect(all.length).toBe(40);
      } finally {
        await second.stop();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

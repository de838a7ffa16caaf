import type { Logger } from '../logger.js';
import type { EmbeddingProvider } from '../../providers/embedding/types.js';
import type {
  DocumentMemoryLink,
  IngestionJob,
  IngestionJobPatch,
  NewDocumentPage,
  NewTask,
  StoredDocument,
  Storage,
  Task,
} from '../../storage/types.js';
import { isNotFound } from '../../errors.js';
import { isoNow, type Clock } from '../clock.js';
import { newId } from '../ids.js';
import type { MemoryDraft } from '../memories/records.js';
import type { MemoryService, MemoryWriteScope } from '../memories/service.js';
import { normaliseContent } from '../text/index.js';
import type { WorkspaceService } from '../workspaces/service.js';
import { IngestionProblem } from './extract.js';
import { chunksOf, resolveOptions, type Chunk } from './options.js';
import { passagesOf } from './passages.js';
import type { DocumentReader } from './reader.js';

export const INGEST_TASK = 'document.ingest';

/** Chunks written per step: one embedding call and one transaction each; a cancel is seen between steps. */
const CHUNKS_PER_STEP = 16;

export function ingestTask(job: Pick<IngestionJob, 'id' | 'workspace_id'>, now: string): NewTask {
  return {
    kind: INGEST_TASK,
    workspaceId: job.workspace_id,
    payload: { job_id: job.id },
    runAt: now,
    dedupeKey: `${INGEST_TASK}:${job.id}`,
  };
}

export interface IngestorDeps {
  storage: Storage;
  memories: MemoryService;
  workspaces: WorkspaceService;
  embedder: EmbeddingProvider;
  reader: DocumentReader;
  clock: Clock;
  log: Logger;
}

/**
 * Runs an ingestion job as a durable task: read the pages (text, OCR or transcription; each with the embeddings of
 * its passages, for page search), cut them into chunks, write
 * the chunks as memories through the write pipeline a step at a time, then drop memories an earlier run made that
 * this one did not. Every stage records its progress on the job, so a task that runs again after a crash skips what
 * is stored; a step that ran but was not recorded is repeated, and the exact-text check of the write pipeline hands
 * back the memories it made instead of writing them twice.
 */
export class DocumentIngestor {
  constructor(private readonly deps: IngestorDeps) {}

  readonly handle = async (task: Task): Promise<void> => {
    const { storage, clock } = this.deps;
    const workspaceId = task.workspaceId!;
    const found = await storage.documents.getJob(workspaceId, String(task.payload.job_id));
    const job =
      found?.status === 'queued'
        ? await this.update(found, { status: 'processing', started_at: isoNow(clock) }, ['queued'])
        : found;
    if (job?.status !== 'processing') return;
    const document = await storage.documents.get(workspaceId, job.document_id);
    if (!document) return;
    try {
      if (await this.run(document, job)) await this.settle(document, job, { status: 'completed' });
    } catch (error) {
      // Deleted while it ran (its job with it): there is nothing left to fail.
      if (isNotFound(error) && !(await storage.documents.get(workspaceId, document.id))) return;
      const problem =
        error instanceof IngestionProblem
          ? error
          : new IngestionProblem('ingestion_failed', error instanceof Error ? error.message : String(error));
      if (problem !== error) this.deps.log.warn({ err: problem.message, job: job.id }, 'document ingestion failed');
      await this.settle(document, job, { status: 'failed', error_code: problem.code, error_message: problem.message });
    }
  };

  /** True when the job ran to its end; false when it was cancelled (or its document deleted) on the way. */
  private async run(document: StoredDocument, started: IngestionJob): Promise<boolean> {
    const { storage } = this.deps;
    const options = resolveOptions(started.extraction_options);
    let job = started.pages_total === null ? await this.storePages(document, started, options.page_size) : started;
    const { pages } = await storage.documents.listPages(document.workspace_id, document.id, {});
    const chunks = chunksOf(pages, options.chunk_size);
    if (job && job.chunks_total === null) job = await this.update(job, { chunks_total: chunks.length });
    if (!job) return false;
    const scope = await this.writeScope(document.workspace_id);
    for (let start = job.chunks_done; start < chunks.length; start += CHUNKS_PER_STEP) {
      const current = await storage.documents.getJob(document.workspace_id, job.id);
      if (current?.status !== 'processing') return false;
      await this.writeChunks(document, current, scope, chunks.slice(start, start + CHUNKS_PER_STEP));
    }
    await this.dropStaleMemories(document, job.id);
    return true;
  }

  /**
   * Pages from the stored original, each with a vector per passage; a reprocess without the original keeps the pages
   * it has. Null when the job was cancelled while its pages were read (OCR takes a while).
   */
  private async storePages(
    document: StoredDocument,
    job: IngestionJob,
    pageSize: number,
  ): Promise<IngestionJob | null> {
    const { storage, reader, embedder, clock } = this.deps;
    const bytes = await storage.documents.getOriginal(document.workspace_id, document.id);
    if (!bytes) {
      if (document.page_count === 0)
        throw new IngestionProblem(
          'original_missing',
          'the original file was not retained and no pages were stored; upload it again',
        );
      return this.update(job, { pages_total: document.page_count });
    }
    const reading = await reader.read(
      document,
      bytes,
      pageSize,
      async () => (await storage.documents.getJob(document.workspace_id, job.id))?.status !== 'processing',
    );
    if (!reading) return null;
    const passages = reading.pages.map((page) => passagesOf(page.transcript));
    const vectors = await embedder.embed(passages.flat().map(normaliseContent));
    let next = 0;
    const now = isoNow(clock);
    const pages: NewDocumentPage[] = reading.pages.map((page, i) => ({
      id: newId('page'),
      workspace_id: document.workspace_id,
      document_id: document.id,
      page_no: i + 1,
      ...page,
      created_at: now,
      passages: passages[i]!.map((text) => ({ text, embedding: vectors[next++]! })),
    }));
    return storage.transaction(async (tx) => {
      await tx.documents.replacePages(document.workspace_id, document.id, pages);
      return tx.documents.updateJob(document.workspace_id, job.id, {
        pages_total: pages.length,
        page_errors: reading.problems,
        updated_at: now,
      });
    });
  }

  /**
   * One step: the chunks become memories, each linked to the document with its page. A memory the pipeline hands
   * back as an exact duplicate belongs to this document when it cites it (an earlier run, or this step repeated
   * after a crash); otherwise it is someone else's text and the chunk only counts as deduplicated.
   */
  private async writeChunks(
    document: StoredDocument,
    job: IngestionJob,
    scope: MemoryWriteScope,
    chunks: readonly Chunk[],
  ): Promise<void> {
    const { storage, memories, clock } = this.deps;
    const outcomes = await memories.createMany(
      scope,
      chunks.map((chunk) => draftOf(document, chunk)),
    );
    const links: DocumentMemoryLink[] = [];
    outcomes.forEach((outcome, i) => {
      if ('error' in outcome) throw outcome.error;
      const chunk = chunks[i]!;
      if (outcome.action === 'created' || outcome.memory.metadata.document_id === document.id) {
        links.push({
          document_id: document.id,
          memory_id: outcome.memory.id,
          workspace_id: document.workspace_id,
          job_id: job.id,
          page_no: chunk.page_no,
          chunk_index: chunk.index,
        });
      }
    });
    // Progress is recorded whatever the status: a job cancelled meanwhile still says how far it got.
    try {
      await storage.transaction(async (tx) => {
        await tx.documents.linkMemories(links);
        await tx.documents.updateJob(document.workspace_id, job.id, {
          chunks_done: job.chunks_done + chunks.length,
          memories_linked: job.memories_linked + links.length,
          chunks_deduplicated: job.chunks_deduplicated + chunks.length - links.length,
          updated_at: isoNow(clock),
        });
      });
    } catch (error) {
      if (!isNotFound(error) || (await storage.documents.get(document.workspace_id, document.id))) throw error;
      // The document was deleted while this step wrote: the memories it made belong to nothing (the run ends at its
      // next look at the job, deleted with the document).
      const made = outcomes.flatMap((outcome) =>
        'memory' in outcome && outcome.action === 'created' ? [outcome.memory.id] : [],
      );
      await memories.hardDeleteMany(document.workspace_id, made);
    }
  }

  /** Memories of the document that an earlier run made and this one did not (their text changed): removed. */
  private async dropStaleMemories(document: StoredDocument, jobId: string): Promise<void> {
    const { ids } = await this.deps.storage.documents.linkedMemoryIds(document.workspace_id, document.id, {
      exceptJobId: jobId,
    });
    await this.deps.memories.hardDeleteMany(document.workspace_id, ids);
  }

  /** A chunk is a quotation of its page: stored as is (exact duplicates are still skipped), never merged into similar text. */
  private async writeScope(workspaceId: string): Promise<MemoryWriteScope> {
    const scope = await this.deps.workspaces.writeScope(workspaceId);
    return { ...scope, dedup: { ...scope.dedup, enabled: false } };
  }

  /** Ends a processing job; the original goes unless the upload asked to retain it. */
  private async settle(document: StoredDocument, job: IngestionJob, patch: IngestionJobPatch): Promise<void> {
    const { storage, clock } = this.deps;
    await storage.transaction(async (tx) => {
      await tx.documents.updateJob(
        document.workspace_id,
        job.id,
        { ...patch, finished_at: isoNow(clock), updated_at: isoNow(clock) },
        ['processing'],
      );
      if (!document.retain_original) await tx.documents.deleteOriginal(document.workspace_id, document.id);
    });
  }

  private update(
    job: IngestionJob,
    patch: IngestionJobPatch,
    onlyFrom?: IngestionJob['status'][],
  ): Promise<IngestionJob | null> {
    return this.deps.storage.documents.updateJob(
      job.workspace_id,
      job.id,
      { ...patch, updated_at: isoNow(this.deps.clock) },
      onlyFrom,
    );
  }
}

/** The memory a chunk becomes: the upload's context, importance, tags and metadata, citing document and page. */
function draftOf(document: StoredDocument, chunk: Chunk): MemoryDraft {
  return {
    content: chunk.text,
    importance: document.importance,
    tags: document.tags,
    context_id: document.context_id,
    source_scope: 'document',
    metadata: {
      ...document.metadata,
      source: 'document',
      document_id: document.id,
      filename: document.filename,
      document_type: document.document_type,
      page_no: chunk.page_no,
      chunk_index: chunk.index,
    },
  };
}

import { createHash } from 'node:crypto';
import { conflict, notFound } from '../../errors.js';
import type { EmbeddingProvider } from '../../providers/embedding/types.js';
import type {
  DocumentRecord,
  DocumentType,
  IngestionJob,
  IngestionStatus,
  JsonObject,
  Memory,
  StoredDocument,
  Storage,
} from '../../storage/types.js';
import { isoNow, type Clock } from '../clock.js';
import type { CoreEvents } from '../events.js';
import { newId } from '../ids.js';
import { DEFAULT_CONTEXT, DEFAULT_IMPORTANCE } from '../memories/records.js';
import type { MemoryService } from '../memories/service.js';
import { normaliseContent } from '../text/index.js';
import type { WorkspaceService } from '../workspaces/service.js';
import { detectFormat } from './formats.js';
import { ingestTask } from './ingest.js';
import { resolveOptions, type ExtractionOptions } from './options.js';
import { presentDocument, presentJob } from './present.js';
import type { DocumentReader } from './reader.js';

export interface Upload {
  filename: string;
  /** As the client declared it; the type is decided by `detectFormat`. */
  mimeType: string | undefined;
  bytes: Uint8Array;
  contextId?: string | undefined;
  importance?: number | undefined;
  tags?: string[] | undefined;
  metadata?: JsonObject | undefined;
  extractionOptions?: Partial<ExtractionOptions> | undefined;
  retainOriginal?: boolean | undefined;
}

const ACTIVE: IngestionStatus[] = ['queued', 'processing'];
/**
 * Rounds of removing a document's memories before it is deleted with them: one normally, two when a step of its
 * cancelled job linked memories meanwhile; more only while a new job writes (see `delete`).
 */
const DELETE_ROUNDS = 5;

interface DocumentServiceDeps {
  storage: Storage;
  memories: MemoryService;
  workspaces: WorkspaceService;
  /** For page-search queries (short, repeated: the cached embedder). */
  queryEmbedder: EmbeddingProvider;
  /** Says at upload whether this server can read the type (images need OCR, audio a transcription endpoint). */
  reader: Pick<DocumentReader, 'assertReadable'>;
  clock: Clock;
  events: CoreEvents;
}

/**
 * Documents of a workspace: upload (stored with its first ingestion job and task in one transaction), reads of the
 * document, its pages, memories and jobs, page search, cancel, reprocess and delete. The work itself is the
 * DocumentIngestor's, run from the durable queue.
 */
export interface ReprocessChange {
  extractionOptions?: Partial<ExtractionOptions> | undefined;
  contextId?: string | undefined;
  importance?: number | undefined;
}

export class DocumentService {
  constructor(private readonly deps: DocumentServiceDeps) {}

  async upload(workspaceId: string, upload: Upload) {
    const workspace = await this.deps.workspaces.get(workspaceId);
    const format = detectFormat(upload.filename, upload.mimeType, upload.bytes);
    this.deps.reader.assertReadable(format.type);
    const now = isoNow(this.deps.clock);
    const options = resolveOptions(upload.extractionOptions);
    const documentId = newId('doc');
    const job = newJob(workspace.id, documentId, options, now);
    const document: DocumentRecord = {
      id: documentId,
      workspace_id: workspace.id,
      tenant_id: workspace.tenant_id,
      filename: upload.filename,
      mime_type: format.mime,
      document_type: format.type,
      size_bytes: upload.bytes.length,
      content_hash: createHash('sha256').update(upload.bytes).digest('hex'),
      context_id: upload.contextId ?? DEFAULT_CONTEXT,
      importance: upload.importance ?? DEFAULT_IMPORTANCE,
      tags: [...new Set(upload.tags ?? [])],
      metadata: upload.metadata ?? {},
      extraction_options: { ...options },
      retain_original: upload.retainOriginal ?? false,
      current_job_id: job.id,
      created_at: now,
      updated_at: now,
    };
    // The bytes are stored either way: the job reads them from the database, on whichever node claims it.
    await this.deps.storage.transaction(async (tx) => {
      await tx.documents.insert(document);
      await tx.documents.createJob(job);
      await tx.documents.putOriginal(workspace.id, documentId, upload.bytes);
      await tx.tasks.enqueue([ingestTask(job, now)]);
    });
    this.deps.events.tasksQueued();
    return { document: presentDocument(await this.document(workspace.id, documentId)), job: presentJob(job) };
  }

  async list(
    workspaceId: string,
    options: {
      status?: IngestionStatus | undefined;
      documentType?: DocumentType | undefined;
      limit: number;
      offset: number;
    },
  ) {
    await this.deps.workspaces.get(workspaceId);
    const { documents, total } = await this.deps.storage.documents.list(workspaceId, options);
    return {
      documents: documents.map(presentDocument),
      total_count: total,
      limit: options.limit,
      offset: options.offset,
    };
  }

  /** The document with the ids of the memories its chunks became, and its current job. */
  async get(workspaceId: string, id: string) {
    const document = await this.document(workspaceId, id);
    const [{ ids }, job] = await Promise.all([
      this.deps.storage.documents.linkedMemoryIds(workspaceId, id, {}),
      this.job(workspaceId, document.current_job_id),
    ]);
    return { document: { ...presentDocument(document), memory_ids: ids }, job };
  }

  async memories(workspaceId: string, id: string, page: { limit: number; offset: number }) {
    await this.document(workspaceId, id);
    const { ids, total } = await this.deps.storage.documents.linkedMemoryIds(workspaceId, id, page);
    const byId = new Map((await this.deps.storage.memories.getMany(workspaceId, ids)).map((m) => [m.id, m]));
    const memories: Memory[] = ids.flatMap((memoryId) => byId.get(memoryId) ?? []);
    return { document_id: id, memories, total_count: total };
  }

  async pages(workspaceId: string, id: string, page: { limit: number; offset: number }) {
    await this.document(workspaceId, id);
    const { pages, total } = await this.deps.storage.documents.listPages(workspaceId, id, page);
    return { document_id: id, pages, total_count: total };
  }

  async page(workspaceId: string, id: string, pageId: string) {
    await this.document(workspaceId, id);
    const page = await this.deps.storage.documents.getPage(workspaceId, id, pageId);
    if (!page) throw notFound('page', pageId);
    return { page };
  }

  /**
   * Pages by their best-matching passage (max-sim: a page scores the cosine similarity of its nearest passage to the
   * query; exact scan), each with that passage.
   */
  async search(workspaceId: string, request: { query: string; limit: number; documentIds?: string[] | undefined }) {
    await this.deps.workspaces.get(workspaceId);
    const [vector] = await this.deps.queryEmbedder.embed([normaliseContent(request.query)]);
    const found = await this.deps.storage.documents.searchPages(workspaceId, vector!, {
      k: request.limit,
      documentIds: request.documentIds,
    });
    const pages = found.map(({ page, score, passage }) => ({ ...page, relevance_score: score, passage }));
    return { pages, total_count: pages.length, query: request.query };
  }

  async jobs(
    workspaceId: string,
    options: { status?: IngestionStatus | undefined; documentId?: string | undefined; limit: number; offset: number },
  ) {
    await this.deps.workspaces.get(workspaceId);
    const { jobs, total } = await this.deps.storage.documents.listJobs(workspaceId, options);
    return { jobs: jobs.map(presentJob), total_count: total, limit: options.limit, offset: options.offset };
  }

  async job(workspaceId: string, jobId: string) {
    const job = await this.deps.storage.documents.getJob(workspaceId, jobId);
    if (!job) throw notFound('ingestion job', jobId);
    return presentJob(job);
  }

  /**
   * Only a queued or processing job can be cancelled (409 otherwise). A processing job stops before its next step of
   * chunks; the memories it wrote stay with the document. The original goes unless it was to be retained.
   */
  async cancel(workspaceId: string, jobId: string) {
    const { storage, clock } = this.deps;
    const job = await storage.documents.getJob(workspaceId, jobId);
    if (!job) throw notFound('ingestion job', jobId);
    const now = isoNow(clock);
    const cancelled = await storage.transaction(async (tx) => {
      const updated = await tx.documents.updateJob(
        workspaceId,
        jobId,
        { status: 'cancelled', finished_at: now, updated_at: now },
        ACTIVE,
      );
      const document = updated && (await tx.documents.get(workspaceId, updated.document_id));
      if (document && !document.retain_original) await tx.documents.deleteOriginal(workspaceId, document.id);
      return updated;
    });
    if (!cancelled)
      throw conflict(`ingestion job '${jobId}' is ${job.status}; only a queued or processing job can be cancelled`);
    return { job: presentJob(cancelled) };
  }

  /**
   * A new job for the document, with the given options over its last ones. With the original stored the pages are
   * extracted again; without it the stored pages are cut again. Chunks whose text did not change keep their memory;
   * memories of chunks that are gone are removed when the job completes. A new context or importance applies to
   * the memories the new job writes.
   */
  async reprocess(workspaceId: string, id: string, change: ReprocessChange = {}) {
    const { storage, clock, events } = this.deps;
    const document = await this.document(workspaceId, id);
    if (ACTIVE.includes(document.status))
      throw conflict(
        `document '${id}' is being ingested (job '${document.current_job_id}' is ${document.status}); cancel it or wait`,
      );
    if (!document.original_stored && document.page_count === 0)
      throw conflict(`document '${id}' has neither its original nor pages to reprocess; upload the file again`);
    const now = isoNow(clock);
    const options = resolveOptions(document.extraction_options, change.extractionOptions);
    const job = newJob(workspaceId, id, options, now);
    await storage.transaction(async (tx) => {
      await tx.documents.createJob(job);
      await tx.documents.update(workspaceId, id, {
        current_job_id: job.id,
        extraction_options: { ...options },
        ...(change.contextId !== undefined && { context_id: change.contextId }),
        ...(change.importance !== undefined && { importance: change.importance }),
        updated_at: now,
      });
      await tx.tasks.enqueue([ingestTask(job, now)]);
    });
    events.tasksQueued();
    return { document: presentDocument(await this.document(workspaceId, id)), job: presentJob(job) };
  }

  /**
   * Removes the document with its original, pages and jobs (a running job is cancelled first, so it writes nothing
   * more). With `deleteMemories` the memories its chunks became are removed for good, with their facts.
   */
  async delete(workspaceId: string, id: string, deleteMemories: boolean): Promise<void> {
    const { storage, memories, clock } = this.deps;
    const document = await this.document(workspaceId, id);
    const now = isoNow(clock);
    await storage.documents.updateJob(
      workspaceId,
      document.current_job_id,
      { status: 'cancelled', finished_at: now, updated_at: now },
      ACTIVE,
    );
    if (!deleteMemories) {
      await storage.documents.delete(workspaceId, id);
      return;
    }
    // A step of the job, begun before the cancel, may still be writing memories: its links land before the document
    // is held for deletion (then they are removed on the next round) or fail on the deleted document (and the step
    // removes what it wrote, DocumentIngestor.writeChunks). Reading the links once and deleting after left such a
    // step's memories behind on PostgreSQL.
    for (let round = 0; round < DELETE_ROUNDS; round++) {
      await memories.hardDeleteMany(workspaceId, (await storage.documents.linkedMemoryIds(workspaceId, id, {})).ids);
      if ((await storage.transaction((tx) => tx.documents.deleteUnlinked(workspaceId, id))) !== 'linked') return;
    }
    throw conflict(`document '${id}' is still being written (a reprocess?); delete it again`);
  }

  private async document(workspaceId: string, id: string): Promise<StoredDocument> {
    const document = await this.deps.storage.documents.get(workspaceId, id);
    if (!document) throw notFound('document', id);
    return document;
  }
}

function newJob(workspaceId: string, documentId: string, options: ExtractionOptions, now: string): IngestionJob {
  return {
    id: newId('job'),
    workspace_id: workspaceId,
    document_id: documentId,
    status: 'queued',
    extraction_options: { ...options },
    pages_total: null,
    chunks_total: null,
    chunks_done: 0,
    memories_linked: 0,
    chunks_deduplicated: 0,
    error_code: null,
    error_message: null,
    page_errors: [],
    created_at: now,
    started_at: null,
    finished_at: null,
    updated_at: now,
  };
}

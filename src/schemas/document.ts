import { Type, type Static } from 'typebox';
import { JsonObject, Nullable, StringEnum, Timestamp } from './primitives.js';

export const DOCUMENT_TYPES = ['text', 'markdown', 'html', 'pdf', 'docx', 'image', 'audio'] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];

/**
 * An ingestion job moves queued → processing → completed | failed | cancelled, or queued → cancelled; nothing leaves
 * completed, failed or cancelled. A document's status is the status of its current (latest) job.
 */
export const INGESTION_STATUSES = ['queued', 'processing', 'completed', 'failed', 'cancelled'] as const;
export type IngestionStatus = (typeof INGESTION_STATUSES)[number];

export const IngestionStatusField = StringEnum(INGESTION_STATUSES, {
  description: 'queued → processing → completed | failed | cancelled; a document has its current job’s status',
});

/**
 * An uploaded document as stored, declared once. A read adds what follows from its current job, pages, memories and
 * stored bytes (`StoredDocumentRecord`); the API's document is that with the names client libraries read
 * (src/http/schemas/document.ts).
 */
export const DocumentRecord = Type.Object({
  id: Type.String(),
  workspace_id: Type.String(),
  tenant_id: Type.String(),
  filename: Type.String(),
  mime_type: Type.String(),
  document_type: StringEnum(DOCUMENT_TYPES),
  size_bytes: Type.Integer(),
  content_hash: Type.String({ description: 'SHA-256 hex of the uploaded bytes' }),
  context_id: Type.String({ description: 'context of the memories made from it' }),
  importance: Type.Number(),
  tags: Type.Array(Type.String()),
  metadata: JsonObject,
  /** The options of the latest run (upload or reprocess) as given; the API shows them with defaults filled in. */
  extraction_options: JsonObject,
  retain_original: Type.Boolean(),
  current_job_id: Type.String({ description: 'the current (latest) ingestion job' }),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type DocumentRecord = Static<typeof DocumentRecord>;

/** A document as read: the record with its current job's status and what its pages, memories and bytes come to. */
export const StoredDocumentRecord = Type.Object({
  ...DocumentRecord.properties,
  status: IngestionStatusField,
  original_stored: Type.Boolean({
    description: 'the uploaded bytes are stored (until the job ends, or for good with retain_original)',
  }),
  page_count: Type.Integer(),
  memory_count: Type.Integer({ description: 'memories its chunks became' }),
});
export type StoredDocument = Static<typeof StoredDocumentRecord>;

/** A page of a document, declared once: response schema and stored record. */
export const DocumentPageRecord = Type.Object(
  {
    id: Type.String(),
    workspace_id: Type.String(),
    document_id: Type.String(),
    page_no: Type.Integer({ minimum: 1 }),
    transcript: Type.String(),
    transcript_model: Type.String({
      description:
        'the extractor (unpdf, mammoth, html-text, markdown, plain-text), the OCR model (tesseract.js-eng-best-int) or the transcription model',
    }),
    transcript_confidence: Nullable(
      Type.Number({ minimum: 0, maximum: 1, description: 'OCR pages: mean word confidence; null otherwise' }),
    ),
    created_at: Timestamp,
  },
  { title: 'DocumentPage' },
);
export type DocumentPage = Static<typeof DocumentPageRecord>;

/** A page that could not be read (OCR), and why; the job goes on with the others. */
export const PageErrorRecord = Type.Object({
  page_no: Type.Integer({ minimum: 1 }),
  code: Type.String({
    description:
      'render_failed, render_timeout, render_out_of_memory, corrupt_document, image_too_large, ocr_timeout or ocr_failed',
  }),
  message: Type.String(),
});
export type PageError = Static<typeof PageErrorRecord>;

/** Why an ingestion job failed. */
export const IngestionErrorCode = Type.String({
  description:
    'empty_document, corrupt_document, encrypted_document, no_text, extraction_timeout, original_missing, image_too_large, ocr_timeout, ocr_failed, ocr_unavailable, transcription_failed, transcription_unavailable or ingestion_failed',
});

/**
 * One run of a document's ingestion as stored, declared once; the API groups its counters as `progress` and its
 * failure as `error`, beside the flat names client libraries read (src/http/schemas/document.ts).
 */
export const IngestionJobRecord = Type.Object({
  id: Type.String(),
  workspace_id: Type.String(),
  document_id: Type.String(),
  status: IngestionStatusField,
  /** The effective options of this run. */
  extraction_options: JsonObject,
  pages_total: Nullable(Type.Integer({ description: 'null until the pages are extracted' })),
  chunks_total: Nullable(Type.Integer({ description: 'null until the pages are cut into chunks' })),
  chunks_done: Type.Integer(),
  memories_linked: Type.Integer({
    description: 'chunks that are memories of the document after this run (new, or unchanged and kept)',
  }),
  chunks_deduplicated: Type.Integer({
    description: 'chunks whose exact text already was a memory from elsewhere (not linked)',
  }),
  error_code: Nullable(IngestionErrorCode),
  error_message: Nullable(Type.String()),
  page_errors: Type.Array(PageErrorRecord, {
    description:
      'scanned pages (of a PDF or a multi-page TIFF) OCR could not read (their transcript stays empty); the job goes on with the other pages',
  }),
  created_at: Timestamp,
  started_at: Nullable(Timestamp),
  finished_at: Nullable(Timestamp),
  updated_at: Timestamp,
});
export type IngestionJob = Static<typeof IngestionJobRecord>;

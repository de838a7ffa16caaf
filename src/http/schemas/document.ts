import { Type, type Static } from 'typebox';
import { Identifier, JsonObject, NonBlank, Nullable, paging, Score01, StringEnum, Timestamp, WorkspaceIdField } from './common.js';
import { Memory } from './memory.js';

const DOCUMENT_TYPES = ['text', 'markdown', 'html', 'pdf', 'docx', 'image', 'audio'] as const;
const STATUSES = ['queued', 'processing', 'completed', 'failed', 'cancelled'] as const;
const Status = StringEnum(STATUSES, { description: 'queued → processing → completed | failed | cancelled; a document has its current job’s status' });

export const ExtractionOptions = Type.Object(
  {
    chunk_size: Type.Optional(Type.Integer({ minimum: 200, maximum: 20_000, description: 'largest chunk (one memory) in characters; default 1000; a chunk never spans pages' })),
    page_size: Type.Optional(Type.Integer({ minimum: 500, maximum: 100_000, description: 'largest page in characters for text, Markdown, HTML and Word; default 3000 (PDF pages are the PDF’s)' })),
  },
  { additionalProperties: false },
);
export type ExtractionOptions = Static<typeof ExtractionOptions>;

/** The flat fields client libraries send with an upload or a reprocess, beside `extraction_options`. */
const flatExtractionFields = {
  chunk_size: Type.Optional(Type.Integer({ minimum: 200, maximum: 20_000, description: 'the same as extraction_options.chunk_size (which wins when both are given)' })),
  chunking_strategy: Type.Optional(Type.String({ maxLength: 64, description: 'accepted and ignored: memd packs paragraphs into chunks, one strategy' })),
  chunk_overlap: Type.Optional(Type.Integer({ minimum: 0, maximum: 20_000, description: 'accepted and ignored: chunks do not overlap, so each memory cites one passage' })),
};

/** The form fields of an upload besides `file`, after their text is read as numbers, booleans, lists and JSON. */
export const UploadFields = Type.Object(
  {
    workspace_id: WorkspaceIdField,
    target_context_id: Type.Optional(Identifier('context of the memories the chunks become; default `_default`')),
    importance: Type.Optional(Score01('importance of those memories', { default: 0.5 })),
    tags: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 256 }), { maxItems: 100, description: 'repeat the field, or send a JSON array or a comma-separated list' })),
    metadata: Type.Optional(JsonObject),
    extraction_options: Type.Optional(ExtractionOptions),
    retain_original: Type.Optional(Type.Boolean({ description: 'keep the uploaded bytes after ingestion (default false)' })),
    ...flatExtractionFields,
  },
  { additionalProperties: false },
);
export type UploadFields = Static<typeof UploadFields>;

/** The multipart form of an upload, for the OpenAPI document: the file and the fields above. */
export const UploadForm = Type.Object(
  { file: Type.String({ format: 'binary', description: 'the document: text, Markdown, HTML, PDF or Word' }), ...UploadFields.properties },
  { additionalProperties: false },
);

export const Document = Type.Object({
  id: Type.String(),
  workspace_id: Type.String(),
  tenant_id: Type.String(),
  filename: Type.String(),
  mime_type: Type.String(),
  document_type: StringEnum(DOCUMENT_TYPES),
  size_bytes: Type.Integer(),
  content_hash: Type.String({ description: 'SHA-256 hex of the uploaded bytes' }),
  status: Status,
  context_id: Type.String({ description: 'context of the memories made from it' }),
  target_context_id: Type.String({ description: 'the same as context_id (the name client libraries read)' }),
  importance: Type.Number(),
  tags: Type.Array(Type.String()),
  metadata: JsonObject,
  extraction_options: Type.Object({ chunk_size: Type.Integer(), page_size: Type.Integer() }),
  retain_original: Type.Boolean(),
  original_stored: Type.Boolean({ description: 'the uploaded bytes are stored (until the job ends, or for good with retain_original)' }),
  page_count: Type.Integer(),
  memory_count: Type.Integer({ description: 'memories its chunks became' }),
  job_id: Type.String({ description: 'the current (latest) ingestion job' }),
  created_at: Timestamp,
  updated_at: Timestamp,
});

export const Job = Type.Object({
  id: Type.String(),
  workspace_id: Type.String(),
  document_id: Type.String(),
  status: Status,
  extraction_options: Type.Object({ chunk_size: Type.Integer(), page_size: Type.Integer() }),
  progress: Type.Object({
    pages_total: Nullable(Type.Integer({ description: 'null until the pages are extracted' })),
    chunks_total: Nullable(Type.Integer({ description: 'null until the pages are cut into chunks' })),
    chunks_processed: Type.Integer(),
    memories: Type.Integer({ description: 'chunks that are memories of the document after this run (new, or unchanged and kept)' }),
    chunks_deduplicated: Type.Integer({ description: 'chunks whose exact text already was a memory from elsewhere (not linked)' }),
    percent: Type.Integer({ minimum: 0, maximum: 100 }),
  }),
  error: Nullable(
    Type.Object({
      code: Type.String({
        description:
          'empty_document, corrupt_document, encrypted_document, no_text, extraction_timeout, original_missing, image_too_large, ocr_timeout, ocr_failed, ocr_unavailable, transcription_failed, transcription_unavailable or ingestion_failed',
      }),
      message: Type.String(),
    }),
  ),
  page_errors: Type.Array(
    Type.Object({
      page_no: Type.Integer({ minimum: 1 }),
      code: Type.String({ description: 'render_failed, render_timeout, render_out_of_memory, corrupt_document, image_too_large, ocr_timeout or ocr_failed' }),
      message: Type.String(),
    }),
    { description: 'scanned pages (of a PDF or a multi-page TIFF) OCR could not read (their transcript stays empty); the job goes on with the other pages' },
  ),
  created_at: Timestamp,
  started_at: Nullable(Timestamp),
  finished_at: Nullable(Timestamp),
  updated_at: Timestamp,
  progress_percent: Type.Integer({ minimum: 0, maximum: 100, description: 'the same as progress.percent' }),
  document_ids: Type.Array(Type.String(), { description: 'the job’s document, as a list' }),
  documents_processed: Type.Integer({ description: '1 once the job completed, else 0' }),
  total_memories_created: Type.Integer({ description: 'the same as progress.memories' }),
  errors: Type.Array(Type.Object({ code: Type.String(), message: Type.String() }), { description: 'error as a list: empty, or the one error' }),
  completed_at: Nullable(Timestamp),
});

export const Page = Type.Object({
  id: Type.String(),
  workspace_id: Type.String(),
  document_id: Type.String(),
  page_no: Type.Integer({ minimum: 1 }),
  transcript: Type.String(),
  transcript_model: Type.String({
    description: 'the extractor (unpdf, mammoth, html-text, markdown, plain-text), the OCR model (tesseract.js-eng-best-int) or the transcription model',
  }),
  transcript_confidence: Nullable(Type.Number({ minimum: 0, maximum: 1, description: 'OCR pages: mean word confidence; null otherwise' })),
  created_at: Timestamp,
});

export const DocumentAndJob = Type.Object({ document: Document, job: Job });
export const DocumentDetail = Type.Object({ document: Type.Object({ ...Document.properties, memory_ids: Type.Array(Type.String(), { description: 'in page order' }) }), job: Job });
export const DocumentList = Type.Object({ documents: Type.Array(Document), total_count: Type.Integer(), limit: Type.Integer(), offset: Type.Integer() });
export const JobEnvelope = Type.Object({ job: Job });
export const JobList = Type.Object({ jobs: Type.Array(Job), total_count: Type.Integer(), limit: Type.Integer(), offset: Type.Integer() });
export const PageEnvelope = Type.Object({ page: Page });
export const PageList = Type.Object({ document_id: Type.String(), pages: Type.Array(Page), total_count: Type.Integer() });
export const DocumentMemories = Type.Object({ document_id: Type.String(), memories: Type.Array(Memory), total_count: Type.Integer() });

export const ListDocumentsQuery = Type.Object(
  { workspace_id: WorkspaceIdField, status: Type.Optional(Status), document_type: Type.Optional(StringEnum(DOCUMENT_TYPES)), ...paging(200, 50) },
  { additionalProperties: false },
);
export const ListJobsQuery = Type.Object(
  { workspace_id: WorkspaceIdField, status: Type.Optional(Status), document_id: Type.Optional(Type.String({ minLength: 1, maxLength: 256 })), ...paging(200, 50) },
  { additionalProperties: false },
);
export const PagedQuery = Type.Object({ workspace_id: WorkspaceIdField, ...paging(1000, 100) }, { additionalProperties: false });
export const DeleteDocumentQuery = Type.Object(
  { workspace_id: WorkspaceIdField, delete_memories: Type.Boolean({ default: false, description: 'also remove, for good, the memories made from it (and their facts)' }) },
  { additionalProperties: false },
);

export const SearchBody = Type.Object(
  {
    query: NonBlank({ maxLength: 10_000 }),
    limit: Type.Integer({ minimum: 1, maximum: 100, default: 10 }),
    doc_ids: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 256 }), { maxItems: 1000, description: 'only pages of these documents' })),
    workspace_id: WorkspaceIdField,
  },
  { additionalProperties: false },
);
export const SearchResponse = Type.Object({
  pages: Type.Array(
    Type.Object({
      ...Page.properties,
      relevance_score: Type.Number({ description: 'cosine similarity of the query to the page’s best-matching passage (max-sim)' }),
      passage: Type.Object(
        { index: Type.Integer({ minimum: 0, description: 'position among the page’s passages' }), text: Type.String() },
        { description: 'the passage of the page that matched best' },
      ),
    }),
  ),
  total_count: Type.Integer(),
  query: Type.String(),
});

export const ReprocessBody = Type.Object(
  {
    extraction_options: Type.Optional(ExtractionOptions),
    target_context_id: Type.Optional(Identifier('context of the memories the new job writes')),
    importance: Type.Optional(Score01('importance of the memories the new job writes')),
    ...flatExtractionFields,
    workspace_id: WorkspaceIdField,
  },
  { additionalProperties: false },
);

import { Type, type Static } from 'typebox';
import {
  DOCUMENT_TYPES,
  DocumentPageRecord,
  IngestionErrorCode,
  IngestionJobRecord,
  IngestionStatusField as Status,
  StoredDocumentRecord,
} from '../../schemas/document.js';
import {
  Identifier,
  JsonObject,
  NonBlank,
  Nullable,
  paging,
  Score01,
  StringEnum,
  Timestamp,
  WorkspaceIdField,
} from './common.js';
import { Memory } from './memory.js';

export const ExtractionOptions = Type.Object(
  {
    chunk_size: Type.Optional(
      Type.Integer({
        minimum: 200,
        maximum: 20_000,
        description: 'largest chunk (one memory) in characters; default 1000; a chunk never spans pages',
      }),
    ),
    page_size: Type.Optional(
      Type.Integer({
        minimum: 500,
        maximum: 100_000,
        description:
          'largest page in characters for text, Markdown, HTML and Word; default 3000 (PDF pages are the PDF’s)',
      }),
    ),
  },
  { additionalProperties: false },
);
export type ExtractionOptions = Static<typeof ExtractionOptions>;

/** The flat fields client libraries send with an upload or a reprocess, beside `extraction_options`. */
const flatExtractionFields = {
  chunk_size: Type.Optional(
    Type.Integer({
      minimum: 200,
      maximum: 20_000,
      description: 'the same as extraction_options.chunk_size (which wins when both are given)',
    }),
  ),
  chunking_strategy: Type.Optional(
    Type.String({
      maxLength: 64,
      description: 'accepted and ignored: memd packs paragraphs into chunks, one strategy',
    }),
  ),
  chunk_overlap: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: 20_000,
      description: 'accepted and ignored: chunks do not overlap, so each memory cites one passage',
    }),
  ),
};

/** The form fields of an upload besides `file`, after their text is read as numbers, booleans, lists and JSON. */
export const UploadFields = Type.Object(
  {
    workspace_id: WorkspaceIdField,
    target_context_id: Type.Optional(Identifier('context of the memories the chunks become; default `_default`')),
    importance: Type.Optional(Score01('importance of those memories', { default: 0.5 })),
    tags: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 256 }), {
        maxItems: 100,
        description: 'repeat the field, or send a JSON array or a comma-separated list',
      }),
    ),
    metadata: Type.Optional(JsonObject),
    extraction_options: Type.Optional(ExtractionOptions),
    retain_original: Type.Optional(
      Type.Boolean({ description: 'keep the uploaded bytes after ingestion (default false)' }),
    ),
    ...flatExtractionFields,
  },
  { additionalProperties: false },
);
export type UploadFields = Static<typeof UploadFields>;

/** The multipart form of an upload, for the OpenAPI document: the file and the fields above. */
export const UploadForm = Type.Object(
  {
    file: Type.String({ format: 'binary', description: 'the document: text, Markdown, HTML, PDF or Word' }),
    ...UploadFields.properties,
  },
  { additionalProperties: false },
);

/** The extraction options in effect, defaults filled in. */
const EffectiveOptions = Type.Object({ chunk_size: Type.Integer(), page_size: Type.Integer() });

const { current_job_id, extraction_options: _storedOptions, ...documentFields } = StoredDocumentRecord.properties;

/**
 * A document as read (src/schemas/document.ts) with the names client libraries read: `job_id` for its current job,
 * `target_context_id` beside `context_id`; its extraction options with the defaults filled in.
 */
export const Document = Type.Object(
  {
    ...documentFields,
    target_context_id: Type.String({ description: 'the same as context_id (the name client libraries read)' }),
    extraction_options: EffectiveOptions,
    job_id: current_job_id,
  },
  { title: 'Document' },
);

const {
  extraction_options: _jobOptions,
  pages_total,
  chunks_total,
  chunks_done,
  memories_linked,
  chunks_deduplicated,
  error_code: _code,
  error_message: _message,
  ...jobFields
} = IngestionJobRecord.properties;

/**
 * An ingestion job as stored (src/schemas/document.ts) with its counters grouped as `progress` and its failure as
 * `error`, and beside them the flat names client libraries read.
 */
export const Job = Type.Object(
  {
    ...jobFields,
    extraction_options: EffectiveOptions,
    progress: Type.Object({
      pages_total,
      chunks_total,
      chunks_processed: chunks_done,
      memories: memories_linked,
      chunks_deduplicated,
      percent: Type.Integer({ minimum: 0, maximum: 100 }),
    }),
    error: Nullable(Type.Object({ code: IngestionErrorCode, message: Type.String() })),
    progress_percent: Type.Integer({ minimum: 0, maximum: 100, description: 'the same as progress.percent' }),
    document_ids: Type.Array(Type.String(), { description: 'the job’s document, as a list' }),
    documents_processed: Type.Integer({ description: '1 once the job completed, else 0' }),
    total_memories_created: Type.Integer({ description: 'the same as progress.memories' }),
    errors: Type.Array(Type.Object({ code: Type.String(), message: Type.String() }), {
      description: 'error as a list: empty, or the one error',
    }),
    completed_at: Nullable(Timestamp),
  },
  { title: 'IngestionJob' },
);

/** The one declaration of a page: src/schemas/document.ts. */
export const Page = DocumentPageRecord;

export const DocumentAndJob = Type.Object({ document: Document, job: Job });
export const DocumentDetail = Type.Object({
  document: Type.Object({
    ...Document.properties,
    memory_ids: Type.Array(Type.String(), { description: 'in page order' }),
  }),
  job: Job,
});
export const DocumentList = Type.Object({
  documents: Type.Array(Document),
  total_count: Type.Integer(),
  limit: Type.Integer(),
  offset: Type.Integer(),
});
export const JobEnvelope = Type.Object({ job: Job });
export const JobList = Type.Object({
  jobs: Type.Array(Job),
  total_count: Type.Integer(),
  limit: Type.Integer(),
  offset: Type.Integer(),
});
export const PageEnvelope = Type.Object({ page: Page });
export const PageList = Type.Object({
  document_id: Type.String(),
  pages: Type.Array(Page),
  total_count: Type.Integer(),
});
export const DocumentMemories = Type.Object({
  document_id: Type.String(),
  memories: Type.Array(Memory),
  total_count: Type.Integer(),
});

export const ListDocumentsQuery = Type.Object(
  {
    workspace_id: WorkspaceIdField,
    status: Type.Optional(Status),
    document_type: Type.Optional(StringEnum(DOCUMENT_TYPES)),
    ...paging(200, 50),
  },
  { additionalProperties: false },
);
export const ListJobsQuery = Type.Object(
  {
    workspace_id: WorkspaceIdField,
    status: Type.Optional(Status),
    document_id: Type.Optional(Type.String({ minLength: 1, maxLength: 256 })),
    ...paging(200, 50),
  },
  { additionalProperties: false },
);
export const PagedQuery = Type.Object(
  { workspace_id: WorkspaceIdField, ...paging(1000, 100) },
  { additionalProperties: false },
);
export const DeleteDocumentQuery = Type.Object(
  {
    workspace_id: WorkspaceIdField,
    delete_memories: Type.Boolean({
      default: false,
      description: 'also remove, for good, the memories made from it (and their facts)',
    }),
  },
  { additionalProperties: false },
);

export const SearchBody = Type.Object(
  {
    query: NonBlank({ maxLength: 10_000 }),
    limit: Type.Integer({ minimum: 1, maximum: 100, default: 10 }),
    doc_ids: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 256 }), {
        maxItems: 1000,
        description: 'only pages of these documents',
      }),
    ),
    workspace_id: WorkspaceIdField,
  },
  { additionalProperties: false },
);
export const SearchResponse = Type.Object({
  pages: Type.Array(
    Type.Object({
      ...Page.properties,
      relevance_score: Type.Number({
        description: 'cosine similarity of the query to the page’s best-matching passage (max-sim)',
      }),
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

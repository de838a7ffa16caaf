import multipart from '@fastify/multipart';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { AppError, invalid } from '../../errors.js';
import type { CoreServices } from '../../services.js';
import { commonErrors, ErrorResponse, IdParams, WorkspaceQuery } from '../schemas/common.js';
import {
  DeleteDocumentQuery,
  DocumentAndJob,
  type ExtractionOptions,
  DocumentDetail,
  DocumentList,
  DocumentMemories,
  JobEnvelope,
  JobList,
  ListDocumentsQuery,
  ListJobsQuery,
  PagedQuery,
  PageEnvelope,
  PageList,
  ReprocessBody,
  SearchBody,
  SearchResponse,
  UploadFields,
  UploadForm,
} from '../schemas/document.js';
import { parseClientJson } from '../json-body.js';
import { objectAccess, scopedAccess } from '../request-context.js';
import { compileBodySchema } from '../validation.js';
import type { App } from '../server.js';

const tags = ['documents'];
const DocumentParams = IdParams('document_id', 'document id (doc_…)');
const JobParams = IdParams('job_id', 'ingestion job id (job_…)');
const PageParams = Type.Object({ ...DocumentParams.properties, ...IdParams('page_id', 'page id (page_…)').properties });
/** Form fields are small; a larger one is refused rather than silently cut. */
const FIELD_MAX_BYTES = 1024 * 1024;
const checkUploadFields = compileBodySchema<UploadFields>(UploadFields);

interface ReceivedFile {
  filename: string;
  mimetype: string;
  bytes: Buffer;
}

/** A form field's text as the value its schema expects; text that does not parse stays text, and the schema says why. */
function fieldValue(name: string, values: string[], maxDepth: number): unknown {
  const text = values[values.length - 1]!;
  const parsed = (): unknown => {
    try {
      return parseClientJson(text, maxDepth, `/${name}`);
    } catch (error) {
      if (error instanceof AppError) throw error;
      return text;
    }
  };
  switch (name) {
    case 'importance':
    case 'chunk_size':
    case 'chunk_overlap':
      return text.trim() !== '' && Number.isFinite(Number(text)) ? Number(text) : text;
    case 'retain_original':
      return text === 'true' || text === '1' ? true : text === 'false' || text === '0' ? false : text;
    case 'metadata':
    case 'extraction_options':
      return parsed();
    case 'tags':
      if (values.length > 1) return values;
      return text.trim().startsWith('[')
        ? parsed()
        : text
            .split(',')
            .map((t) => t.trim())
            .filter((t) => t !== '');
    default:
      return text;
  }
}

/** Reads the one `file` part into memory (refusing more than `maxBytes`) and the form fields, checked by their schema. */
async function readUpload(
  request: FastifyRequest,
  maxBytes: number,
  maxDepth: number,
): Promise<{ file: ReceivedFile; fields: UploadFields }> {
  if (!request.isMultipart())
    throw new AppError(
      'unsupported_media_type',
      'upload the document as multipart/form-data with the file in a `file` field',
    );
  let file: ReceivedFile | undefined;
  const texts = new Map<string, string[]>();
  try {
    for await (const part of request.parts({
      limits: { fileSize: maxBytes, files: 1, fields: 32, fieldSize: FIELD_MAX_BYTES },
    })) {
      if (part.type === 'file') {
        const bytes = await part.toBuffer();
        if (part.fieldname !== 'file') throw invalid(`/${part.fieldname}`, 'the file goes in the `file` field');
        file = { filename: part.filename || 'document', mimetype: part.mimetype, bytes };
      } else {
        if (part.valueTruncated)
          throw new AppError(
            'payload_too_large',
            `form field '${part.fieldname}' is larger than ${FIELD_MAX_BYTES} bytes`,
          );
        texts.set(part.fieldname, [...(texts.get(part.fieldname) ?? []), String(part.value)]);
      }
    }
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE')
      throw new AppError('payload_too_large', `the file is larger than ${maxBytes} bytes (MEMD_DOCUMENT_MAX_BYTES)`);
    if (code === 'FST_FILES_LIMIT') throw invalid('/file', 'one file per upload');
    throw error;
  }
  if (!file) throw invalid('/file', 'is required: the document to ingest');
  const fields = Object.fromEntries([...texts].map(([name, values]) => [name, fieldValue(name, values, maxDepth)]));
  // Reported the way fastify reports a body that fails its schema.
  if (!checkUploadFields(fields))
    throw Object.assign(new Error('invalid upload fields'), {
      validation: checkUploadFields.errors,
      validationContext: 'body',
    });
  return { file, fields };
}

/** `chunk_size` sent flat (as client libraries do) under the nested options, which win when both name it. */
const withFlatChunkSize = (
  chunkSize: number | undefined,
  options: ExtractionOptions | undefined,
): ExtractionOptions | undefined => (chunkSize === undefined ? options : { chunk_size: chunkSize, ...options });

/** Documents of the resolved workspace: upload and ingestion jobs, pages and page search, memories, reprocess, delete. */
export function documentRoutes(app: App, services: CoreServices): void {
  const documents = services.documents;
  const scopedWorkspace = async (request: FastifyRequest, formWorkspace?: string) =>
    (await scopedAccess(services, request, formWorkspace)).workspaceId;
  /** Routes under a document or job id address it: the workspace is its. */
  const documentWorkspace = async (request: FastifyRequest, id: string) =>
    (await objectAccess(services, request, 'document', id)).workspaceId;
  const jobWorkspace = async (request: FastifyRequest, id: string) =>
    (await objectAccess(services, request, 'ingestion_job', id)).workspaceId;

  // Multipart parsing belongs to the upload alone.
  void app.register(async (scope) => {
    await scope.register(multipart);
    const uploads = scope.withTypeProvider<TypeBoxTypeProvider>();
    uploads.post(
      '/documents',
      {
        schema: {
          tags,
          summary:
            'Upload a document (multipart/form-data): text, Markdown, HTML, PDF, Word, an image (OCR) or audio (transcription, when configured; 501 otherwise). Answers 202 with the document and its queued ingestion job',
          description:
            'Form fields: file (required), target_context_id, importance, tags, metadata (JSON), extraction_options (JSON: chunk_size, page_size), retain_original, workspace_id. ' +
            'An unsupported type is a 415, a file over MEMD_DOCUMENT_MAX_BYTES a 413; an empty or unreadable file is accepted and its job fails with the reason.',
          querystring: WorkspaceQuery,
          body: { content: { 'multipart/form-data': { schema: UploadForm } } },
          response: { 202: DocumentAndJob, 413: ErrorResponse, 415: ErrorResponse, ...commonErrors },
        },
      },
      async (request, reply) => {
        const { file, fields } = await readUpload(
          request,
          services.config.documents.maxBytes,
          services.config.jsonMaxDepth,
        );
        const workspaceId = await scopedWorkspace(request, fields.workspace_id);
        const result = await documents.upload(workspaceId, {
          filename: file.filename,
          mimeType: file.mimetype,
          bytes: file.bytes,
          contextId: fields.target_context_id,
          importance: fields.importance,
          tags: fields.tags,
          metadata: fields.metadata,
          extractionOptions: withFlatChunkSize(fields.chunk_size, fields.extraction_options),
          retainOriginal: fields.retain_original,
        });
        return reply.status(202).send(result);
      },
    );
  });

  app.get(
    '/documents',
    {
      schema: {
        tags,
        summary: 'Documents, newest first; filter by status (of the current job) and document_type',
        querystring: ListDocumentsQuery,
        response: { 200: DocumentList, ...commonErrors },
      },
    },
    async (request) => {
      const q = request.query;
      return documents.list(await scopedWorkspace(request), {
        status: q.status,
        documentType: q.document_type,
        limit: q.limit,
        offset: q.offset,
      });
    },
  );

  app.get(
    '/documents/jobs',
    {
      schema: {
        tags,
        summary: 'Ingestion jobs, newest first; filter by status and document_id',
        querystring: ListJobsQuery,
        response: { 200: JobList, ...commonErrors },
      },
    },
    async (request) => {
      const q = request.query;
      return documents.jobs(await scopedWorkspace(request), {
        status: q.status,
        documentId: q.document_id,
        limit: q.limit,
        offset: q.offset,
      });
    },
  );

  app.get(
    '/documents/jobs/:job_id',
    {
      schema: {
        tags,
        summary: 'One ingestion job with its progress and, when it failed, the error',
        params: JobParams,
        querystring: WorkspaceQuery,
        response: { 200: JobEnvelope, ...commonErrors },
      },
    },
    async (request) => ({
      job: await documents.job(await jobWorkspace(request, request.params.job_id), request.params.job_id),
    }),
  );

  app.post(
    '/documents/jobs/:job_id/cancel',
    {
      schema: {
        tags,
        summary:
          'Cancel a queued or processing job (409 otherwise); a processing job stops before its next chunks, keeping the memories written so far',
        params: JobParams,
        querystring: WorkspaceQuery,
        response: { 200: JobEnvelope, 409: ErrorResponse, ...commonErrors },
      },
    },
    async (request) => documents.cancel(await jobWorkspace(request, request.params.job_id), request.params.job_id),
  );

  app.post(
    '/documents/search',
    {
      schema: {
        tags,
        summary:
          'Page search: pages ranked by their best-matching passage (max-sim over one vector per passage), each with that passage',
        body: SearchBody,
        response: { 200: SearchResponse, ...commonErrors },
      },
    },
    async (request) => {
      const b = request.body;
      return documents.search(await scopedWorkspace(request), {
        query: b.query,
        limit: b.limit,
        documentIds: b.doc_ids,
      });
    },
  );

  app.get(
    '/documents/:document_id',
    {
      schema: {
        tags,
        summary: 'A document with its status, page count, the ids of the memories made from it, and its current job',
        params: DocumentParams,
        querystring: WorkspaceQuery,
        response: { 200: DocumentDetail, ...commonErrors },
      },
    },
    async (request) =>
      documents.get(await documentWorkspace(request, request.params.document_id), request.params.document_id),
  );

  app.get(
    '/documents/:document_id/memories',
    {
      schema: {
        tags,
        summary: 'The memories made from the document’s chunks, in page order',
        params: DocumentParams,
        querystring: PagedQuery,
        response: { 200: DocumentMemories, ...commonErrors },
      },
    },
    async (request) => {
      const q = request.query;
      return documents.memories(
        await documentWorkspace(request, request.params.document_id),
        request.params.document_id,
        { limit: q.limit, offset: q.offset },
      );
    },
  );

  app.get(
    '/documents/:document_id/pages',
    {
      schema: {
        tags,
        summary: 'The document’s pages in order: page_no, transcript, transcript_model',
        params: DocumentParams,
        querystring: PagedQuery,
        response: { 200: PageList, ...commonErrors },
      },
    },
    async (request) => {
      const q = request.query;
      return documents.pages(await documentWorkspace(request, request.params.document_id), request.params.document_id, {
        limit: q.limit,
        offset: q.offset,
      });
    },
  );

  app.get(
    '/documents/:document_id/pages/:page_id',
    {
      schema: {
        tags,
        summary: 'One page',
        params: PageParams,
        querystring: WorkspaceQuery,
        response: { 200: PageEnvelope, ...commonErrors },
      },
    },
    async (request) =>
      documents.page(
        await documentWorkspace(request, request.params.document_id),
        request.params.document_id,
        request.params.page_id,
      ),
  );

  app.get(
    '/documents/:document_id/pages/:page_id/image',
    // Not offered, like /v1/datasets (routes/not-offered.ts): hidden from the OpenAPI document, so the client has no method for it.
    {
      schema: {
        hide: true,
        tags,
        summary: 'A page image: not offered (501); pages are text, see the page’s transcript',
        params: PageParams,
        response: { ...commonErrors, 501: ErrorResponse },
      },
    },
    async (request) => {
      await documents.page(
        await documentWorkspace(request, request.params.document_id),
        request.params.document_id,
        request.params.page_id,
      );
      throw new AppError(
        'not_implemented',
        'memd stores the text of a page, not an image of it: GET /v1/documents/{document_id}/pages/{page_id} has its transcript',
      );
    },
  );

  app.post(
    '/documents/:document_id/reprocess',
    {
      schema: {
        tags,
        summary:
          'Run ingestion again as a new job, with new extraction_options over the last ones (409 while a job is queued or processing)',
        params: DocumentParams,
        body: Type.Optional(ReprocessBody),
        response: { 202: DocumentAndJob, 409: ErrorResponse, ...commonErrors },
      },
    },
    async (request, reply) => {
      const b = request.body ?? {};
      const workspaceId = await documentWorkspace(request, request.params.document_id);
      const change = {
        extractionOptions: withFlatChunkSize(b.chunk_size, b.extraction_options),
        contextId: b.target_context_id,
        importance: b.importance,
      };
      return reply.status(202).send(await documents.reprocess(workspaceId, request.params.document_id, change));
    },
  );

  app.delete(
    '/documents/:document_id',
    {
      schema: {
        tags,
        summary:
          'Delete a document with its original, pages and jobs; delete_memories=true also removes the memories made from it',
        params: DocumentParams,
        querystring: DeleteDocumentQuery,
        response: { 204: Type.Null(), ...commonErrors },
      },
    },
    async (request, reply) => {
      const q = request.query;
      await documents.delete(
        await documentWorkspace(request, request.params.document_id),
        request.params.document_id,
        q.delete_memories,
      );
      return reply.status(204).send(null);
    },
  );
}

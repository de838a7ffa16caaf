import { endpoint, methodsOver, type MultipartBody, type Operation, type Query, type Result } from '../operations.js';
import type { CallOptions, Transport } from '../transport.js';

const UPLOAD = '/v1/documents';
type UploadOperation = Operation<typeof UPLOAD, 'post'>;

/** The form fields of an upload besides the file. */
export type UploadFields = Omit<MultipartBody<UploadOperation>, 'file'>;
export type UploadResult = Result<UploadOperation>;
/** The document's bytes: a Blob (or File), bytes, or a stream of bytes (read whole before sending). */
export type UploadSource = Blob | Uint8Array | ArrayBuffer | ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>;

export interface UploadOptions extends CallOptions {
  /** The file name (its extension tells the type when the media type does not); default: the File's name, or `document`. */
  filename?: string;
  /** The media type; default: the Blob's. */
  contentType?: string;
  query?: Query<UploadOperation>;
}

type BlobParts = NonNullable<ConstructorParameters<typeof Blob>[0]>;

async function toBlob(source: UploadSource, contentType: string | undefined): Promise<Blob> {
  if (source instanceof Blob) return contentType ? new Blob([source], { type: contentType }) : source;
  if (source instanceof Uint8Array || source instanceof ArrayBuffer)
    return new Blob([source] as unknown as BlobParts, { type: contentType ?? '' });
  const chunks: Uint8Array[] = [];
  if ('getReader' in source) {
    const reader = source.getReader();
    for (let next = await reader.read(); !next.done; next = await reader.read()) chunks.push(next.value);
  } else {
    for await (const chunk of source) chunks.push(chunk);
  }
  return new Blob(chunks as unknown as BlobParts, { type: contentType ?? '' });
}

/** The fields as form text: objects and lists as JSON, the rest as text. */
function uploadForm(file: Blob, filename: string, fields: UploadFields): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    if (value === undefined || value === null) continue;
    form.append(name, typeof value === 'object' ? JSON.stringify(value) : String(value));
  }
  form.append('file', file, filename);
  return form;
}

/** Documents: upload (ingested in the background as a job), pages and page search, the memories made from them. */
export function documentsApi(transport: Transport) {
  const op = methodsOver(transport);
  return {
    /** Upload a document (multipart): `{document, job}` with status 202; the job ingests it. */
    upload: endpoint(
      'post',
      UPLOAD,
      async (file: UploadSource, fields: UploadFields = {}, options: UploadOptions = {}) => {
        const { filename, contentType, query, ...call } = options;
        const blob = await toBlob(file, contentType);
        const ownName = (file as unknown as { name?: unknown }).name;
        const name = filename ?? (typeof ownName === 'string' && ownName !== '' ? ownName : 'document');
        return transport.send<UploadResult>({
          ...call,
          method: 'post',
          path: UPLOAD,
          query,
          body: { form: uploadForm(blob, name, fields) },
          read: 'json',
        });
      },
    ),
    list: op('get', '/v1/documents'),
    get: op('get', '/v1/documents/{document_id}'),
    /** `{delete_memories: true}` also removes the memories made from it. */
    delete: op('delete', '/v1/documents/{document_id}'),
    /** Ingest again as a new job, with new extraction_options. */
    reprocess: op('post', '/v1/documents/{document_id}/reprocess'),
    memories: op('get', '/v1/documents/{document_id}/memories'),
    pages: op('get', '/v1/documents/{document_id}/pages'),
    /** `(documentId, pageId)`. */
    page: op('get', '/v1/documents/{document_id}/pages/{page_id}'),
    /** Pages ranked by similarity to the query. */
    search: op('post', '/v1/documents/search', { idempotent: true }),
    jobs: {
      list: op('get', '/v1/documents/jobs'),
      get: op('get', '/v1/documents/jobs/{job_id}'),
      /** Cancel a queued or processing job. */
      cancel: op('post', '/v1/documents/jobs/{job_id}/cancel'),
    },
  };
}

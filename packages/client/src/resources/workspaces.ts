import { parseLines, toStream, type LineSource } from '../ndjson.js';
import {
  calls,
  endpoint,
  fillPath,
  methodsOver,
  type Content,
  type JsonBody,
  type Operation,
  type Query,
  type Result,
} from '../operations.js';
import type { CallOptions, Transport } from '../transport.js';

const EXPORT = '/v1/workspaces/{workspace_id}/export';
const IMPORT = '/v1/workspaces/{workspace_id}/import';
type ExportOperation = Operation<typeof EXPORT, 'get'>;
type ImportOperation = Operation<typeof IMPORT, 'post'>;

/** One line of an export: its header, a memory, an association, or its footer. */
export type ExportLine = Content<ExportOperation['responses'][200], 'application/x-ndjson'>;
export type ExportQuery = Query<ExportOperation>;
export type ImportReport = Result<ImportOperation>;

/**
 * What an import reads: the JSON form `{data: {memories, associations}}`; export lines (an export itself, objects or
 * JSON text lines; bytes pass as they are, e.g. a file read as a stream); or a byte stream of NDJSON.
 */
export type ImportSource = JsonBody<ImportOperation> | LineSource | ReadableStream<Uint8Array>;

const isStream = (source: unknown): source is ReadableStream<Uint8Array> =>
  typeof (source as ReadableStream | null)?.getReader === 'function';
const isLines = (source: unknown): source is LineSource =>
  typeof source === 'object' && source !== null && (Symbol.asyncIterator in source || Symbol.iterator in source);

/** Workspaces, their contexts, and moving a workspace's memories out and in. */
export function workspacesApi(transport: Transport) {
  const op = methodsOver(transport);
  return {
    create: op('post', '/v1/workspaces'),
    /** The workspaces the caller may use. */
    list: op('get', '/v1/workspaces'),
    get: op('get', '/v1/workspaces/{workspace_id}'),
    update: op('put', '/v1/workspaces/{workspace_id}'),
    /** The workspace and everything in it. */
    delete: op('delete', '/v1/workspaces/{workspace_id}'),
    /** Relationship types and memory subtypes available in the workspace. */
    schema: op('get', '/v1/workspaces/{workspace_id}/schema'),
    contexts: {
      create: op('post', '/v1/workspaces/{workspace_id}/contexts'),
      list: op('get', '/v1/workspaces/{workspace_id}/contexts'),
    },

    /**
     * The workspace's export, line by line as it streams in (the timeout covers the wait for its first bytes; the
     * signal, the whole read). `for await (const line of client.workspaces.export('ws'))`.
     */
    export: calls(
      'get',
      EXPORT,
      async function* (workspaceId: string, query?: ExportQuery, options?: CallOptions): AsyncGenerator<ExportLine> {
        const { data } = await transport.send<ReadableStream<Uint8Array>>({
          ...options,
          method: 'get',
          path: fillPath(EXPORT, [workspaceId]),
          query,
          read: 'stream',
        });
        yield* parseLines<ExportLine>(data);
      },
    ),

    /** Import into the workspace: `import('b', client.workspaces.export('a'))` copies a workspace. Memories whose content exists are skipped. */
    import: endpoint('post', IMPORT, (workspaceId: string, source: ImportSource, options?: CallOptions) =>
      transport.send<ImportReport>({
        ...options,
        method: 'post',
        path: fillPath(IMPORT, [workspaceId]),
        body: isStream(source)
          ? { stream: source, contentType: 'application/x-ndjson' }
          : isLines(source)
            ? { stream: toStream(source), contentType: 'application/x-ndjson' }
            : { json: source },
        read: 'json',
      }),
    ),
  };
}

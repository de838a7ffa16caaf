import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import { Type } from 'typebox';
import { authorizeWorkspace } from '../../core/access/principal.js';
import type { ImportRecord } from '../../core/portability/import.js';
import { AppError, invalid } from '../../errors.js';
import type { CoreServices } from '../../services.js';
import { commonErrors, ErrorResponse } from '../schemas/common.js';
import {
  ExportLine,
  ExportQuery,
  ImportedAssociation,
  ImportedMemory,
  ImportJsonBody,
  ImportReport,
  toExportOptions,
} from '../schemas/portability.js';
import { WorkspaceParams } from '../schemas/workspace.js';
import { parseClientJson } from '../json-body.js';
import { compileBodySchema } from '../validation.js';
import type { App } from '../server.js';

const NDJSON = 'application/x-ndjson';
const isMemory = compileBodySchema<ImportedMemory>(ImportedMemory);
const isAssociation = compileBodySchema<ImportedAssociation>(ImportedAssociation);

const firstProblem = (validate: {
  errors?: Array<{ instancePath: string; message?: string }> | null | undefined;
}): string => {
  const e = validate.errors?.[0];
  return e ? `${e.instancePath || 'data'} ${e.message ?? 'is invalid'}` : 'is invalid';
};

function toRecord(kind: unknown, data: unknown, line: number): ImportRecord {
  if (kind === 'memory')
    return isMemory(data)
      ? { kind: 'memory', line, data }
      : { kind: 'invalid', line, message: `memory ${firstProblem(isMemory)}` };
  if (kind === 'association')
    return isAssociation(data)
      ? { kind: 'association', line, data }
      : { kind: 'invalid', line, message: `association ${firstProblem(isAssociation)}` };
  if (kind === 'header' || kind === 'footer') return { kind: 'ignored' };
  return { kind: 'invalid', line, message: `unknown line type '${String(kind)}'` };
}

const tooLarge = (limitBytes: number) =>
  new AppError('payload_too_large', `the import is larger than ${limitBytes} bytes (MEMD_IMPORT_BODY_LIMIT_BYTES)`);

/**
 * NDJSON lines → import records. A declared Content-Length over the limit is refused before anything is read
 * (see the parser); a chunked body is cut at the limit (Node discards the rest once the 413 is sent).
 */
async function* ndjsonRecords(body: Readable, limitBytes: number, maxDepth: number): AsyncGenerator<ImportRecord> {
  const input = createInterface({ input: body, crlfDelay: Infinity });
  let bytes = 0;
  let exceeded = false;
  body.on('data', (chunk: Buffer) => {
    bytes += chunk.length;
    if (bytes > limitBytes && !exceeded) {
      exceeded = true;
      input.close();
    }
  });
  let line = 0;
  for await (const text of input) {
    if (exceeded) break;
    line++;
    if (!text.trim()) continue;
    let parsed: { type?: unknown; data?: unknown };
    try {
      parsed = parseClientJson(text, maxDepth, '') as typeof parsed;
    } catch (error) {
      yield { kind: 'invalid', line, message: error instanceof AppError ? error.message : 'not valid JSON' };
      continue;
    }
    yield toRecord(parsed?.type, parsed?.data, line);
  }
  if (exceeded) throw tooLarge(limitBytes);
}

async function* jsonRecords(data: { memories: unknown[]; associations: unknown[] }): AsyncGenerator<ImportRecord> {
  let line = 0;
  for (const memory of data.memories) yield toRecord('memory', memory, ++line);
  for (const association of data.associations) yield toRecord('association', association, ++line);
}

/** Workspace export (streamed NDJSON) and import (NDJSON or the JSON `{data: …}` form). */
export function portabilityRoutes(app: App, services: CoreServices): void {
  app.get(
    '/workspaces/:workspace_id/export',
    {
      schema: {
        tags: ['workspaces'],
        summary: 'Export a workspace as NDJSON: header, memory lines, association lines, footer (streamed)',
        params: WorkspaceParams,
        querystring: ExportQuery,
        response: {
          200: { description: 'one JSON object per line', content: { [NDJSON]: { schema: ExportLine } } },
          ...commonErrors,
        },
      },
    },
    async (request, reply) => {
      const workspaceId = request.params.workspace_id;
      authorizeWorkspace(request.principal, workspaceId);
      const lines = await services.portability.export(workspaceId, toExportOptions(request.query));
      const stream = Readable.from(
        (async function* () {
          for await (const line of lines) yield `${JSON.stringify(line)}\n`;
        })(),
      );
      return reply
        .type(NDJSON)
        .header('content-disposition', `attachment; filename="${workspaceId}.ndjson"`)
        .send(stream as never);
    },
  );

  // NDJSON is read by the import alone; every other route answers 415 to it.
  void app.register(async (plugin) => {
    plugin.addContentTypeParser(NDJSON, (request, payload, done) => {
      const declared = Number(request.headers['content-length'] ?? 0);
      if (declared > services.config.importBodyLimitBytes)
        done(tooLarge(services.config.importBodyLimitBytes), undefined);
      else done(null, payload);
    });
    const imports = plugin.withTypeProvider<TypeBoxTypeProvider>();
    imports.post(
      '/workspaces/:workspace_id/import',
      {
        bodyLimit: services.config.importBodyLimitBytes,
        schema: {
          tags: ['workspaces'],
          summary:
            'Import NDJSON export lines or `{data: {memories, associations}}`; memories whose content_hash exists are skipped',
          params: WorkspaceParams,
          body: {
            content: {
              'application/json': { schema: ImportJsonBody },
              [NDJSON]: { schema: Type.Unknown({ description: 'export lines' }) },
            },
          },
          response: { 200: ImportReport, 413: ErrorResponse, ...commonErrors },
        },
      },
      async (request) => {
        const workspaceId = request.params.workspace_id;
        authorizeWorkspace(request.principal, workspaceId);
        const body = request.body as Readable | { data: { memories: unknown[]; associations: unknown[] } } | undefined;
        // Without a Content-Type there is nothing to read, and no schema of the two was applied.
        if (!body)
          throw invalid('/body', 'is required: export lines (application/x-ndjson) or {data} (application/json)');
        const records =
          body instanceof Readable
            ? ndjsonRecords(body, services.config.importBodyLimitBytes, services.config.jsonMaxDepth)
            : jsonRecords(body.data);
        return services.portability.import(workspaceId, records);
      },
    );
  });
}

import { Type } from 'typebox';
import { ExportQuery, toExportOptions } from '../../http/schemas/portability.js';
import { defineTool } from '../tool.js';
import { WorkspaceArg } from './arguments.js';

export const exportWorkspace = defineTool({
  name: 'export_workspace',
  title: 'Export a workspace',
  description:
    'The workspace as NDJSON, the format POST /v1/workspaces/{id}/import reads back: a header line, one line per memory, one per association, a footer. ' +
    'Large workspaces: page with offset and limit.',
  input: Type.Object({ ...ExportQuery.properties, workspace_id: WorkspaceArg }, { additionalProperties: false }),
  effect: 'reads',
  // As GET /v1/workspaces/{id}/export: a workspace that does not exist is a 404, never created by reading it.
  async run(args, { services, existing }) {
    const lines = await services.portability.export(
      (await existing(args.workspace_id)).workspaceId,
      toExportOptions(args),
    );
    let ndjson = '';
    for await (const line of lines) ndjson += `${JSON.stringify(line)}\n`;
    return ndjson;
  },
});

import { Type } from 'typebox';
import { ListContradictionsQuery, ResolveBody } from '../../http/schemas/contradiction.js';
import { defineTool } from '../tool.js';
import { ContradictionId, WorkspaceArg } from './arguments.js';

export const contradictionsList = defineTool({
  name: 'contradictions_list',
  title: 'List contradictions',
  description:
    'Pairs of memories that contradict each other and are not resolved yet, newest first, with both statements.',
  input: Type.Object(
    { ...ListContradictionsQuery.properties, workspace_id: WorkspaceArg },
    { additionalProperties: false },
  ),
  effect: 'reads',
  // As GET /v1/workspaces/{id}/contradictions: a workspace that does not exist is a 404, never created by reading it.
  async run({ limit, workspace_id }, { services, existing }) {
    const contradictions = await services.contradictions.listUnresolved(
      (await existing(workspace_id)).workspaceId,
      limit,
    );
    return { contradictions, count: contradictions.length };
  },
});

export const contradictionResolve = defineTool({
  name: 'contradiction_resolve',
  title: 'Resolve a contradiction',
  description:
    'Settle a contradiction: keep_a (forgets b), keep_b (forgets a), keep_both, or merge (both replaced by merged_content, which is then required).',
  input: Type.Object(
    { contradiction_id: ContradictionId, ...ResolveBody.properties, workspace_id: WorkspaceArg },
    { additionalProperties: false },
  ),
  effect: 'writes',
  async run({ contradiction_id, resolution, merged_content, workspace_id }, { services, object }) {
    const { workspaceId } = await object('contradiction', contradiction_id, workspace_id);
    return services.contradictions.resolve(workspaceId, contradiction_id, resolution, merged_content);
  },
});

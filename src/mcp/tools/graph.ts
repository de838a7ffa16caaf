import { Type } from 'typebox';
import { AssociateBody, toTraverseOptions, TraverseBody } from '../../http/schemas/association.js';
import { defineTool } from '../tool.js';
import { MemoryId, WorkspaceArg } from './arguments.js';

export const associate = defineTool({
  name: 'associate',
  title: 'Link two memories',
  description:
    'Link a memory (the source, memory_id) to another (target_id) with a typed relationship, e.g. causes, solves, contradicts, supersedes, ' +
    'depends_on, example_of, related_to (the workspace schema resource lists all 63). Linked memories are found together by recall and traverse. ' +
    'Linking the same pair with the same relationship again updates its strength.',
  input: Type.Object(
    { memory_id: MemoryId, ...AssociateBody.properties, workspace_id: WorkspaceArg },
    { additionalProperties: false },
  ),
  effect: 'writes',
  async run({ memory_id, workspace_id, ...link }, { services, object }) {
    const { workspaceId } = await object('memory', memory_id, workspace_id);
    return services.associations.associate(workspaceId, memory_id, link);
  },
});

export const traverse = defineTool({
  name: 'traverse',
  title: 'Follow a memory’s links',
  description:
    'The paths leading out from (or into) a memory through its links, strongest first, up to max_depth hops: what caused it, what solved it, ' +
    'what it depends on. Filter by relationship_types or relationship_categories (causal, solution, …).',
  input: Type.Object(
    { memory_id: MemoryId, ...TraverseBody.properties, workspace_id: WorkspaceArg },
    { additionalProperties: false },
  ),
  effect: 'reads',
  async run(args, { services, object }) {
    const { workspaceId } = await object('memory', args.memory_id, args.workspace_id);
    return services.associations.traverse(workspaceId, args.memory_id, toTraverseOptions(args));
  },
});

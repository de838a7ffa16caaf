import { Type } from 'typebox';
import type { FastifyRequest } from 'fastify';
import { splitList } from '../../core/graph/relationship-filter.js';
import type { CoreServices } from '../../services.js';
import {
  AssociateBody,
  AssociationEnvelope,
  AssociationListResponse,
  ListAssociationsQuery,
  TraceResponse,
  TraverseBody,
  toTraverseOptions,
  TraverseResponse,
} from '../schemas/association.js';
import { commonErrors, ErrorResponse, IdParams, WorkspaceQuery } from '../schemas/common.js';
import { objectAccess } from '../request-context.js';
import type { App } from '../server.js';

const MemoryParams = IdParams('memory_id', 'memory id (mem_…)');
const AssociationParams = Type.Object({
  ...MemoryParams.properties,
  ...IdParams('association_id', 'association id (assoc_…)').properties,
});
const tags = ['associations'];

/** Links between memories, traversal of the graph they form, and a memory's provenance trace. */
export function associationRoutes(app: App, services: CoreServices): void {
  const associations = services.associations;
  /** Every route here addresses its memory by id: the workspace is the memory's. */
  const workspaceOf = async (request: FastifyRequest, memoryId: string) =>
    (await objectAccess(services, request, 'memory', memoryId)).workspaceId;

  // docs/specification.md §4 names `/associate`; the client library posts to `/associations` (NOTES.md, "Values from
  // the reference service"). Same body, same behaviour.
  for (const path of ['/memories/:memory_id/associate', '/memories/:memory_id/associations']) {
    app.post(
      path,
      {
        schema: {
          tags,
          summary:
            'Link this memory (source) to another (target). 201 when the edge is new; 200 when that (source, target, relationship) edge existed and its strength and metadata were updated',
          params: MemoryParams,
          body: AssociateBody,
          response: { 200: AssociationEnvelope, 201: AssociationEnvelope, 409: ErrorResponse, ...commonErrors },
        },
      },
      async (request, reply) => {
        const { workspace_id: _named, ...input } = request.body;
        const workspaceId = await workspaceOf(request, request.params.memory_id);
        const { association, created } = await associations.associate(workspaceId, request.params.memory_id, input);
        return reply.status(created ? 201 : 200).send({ association });
      },
    );
  }

  app.get(
    '/memories/:memory_id/associations',
    {
      schema: {
        tags,
        summary: 'The edges of a memory, by direction and relationship type; edges to deleted memories are left out',
        params: MemoryParams,
        querystring: ListAssociationsQuery,
        response: { 200: AssociationListResponse, ...commonErrors },
      },
    },
    async (request) => {
      const q = request.query;
      const workspaceId = await workspaceOf(request, request.params.memory_id);
      const edges = await associations.list(workspaceId, request.params.memory_id, {
        direction: q.direction,
        relationships: splitList(q.relationships),
      });
      return { associations: edges, total_count: edges.length };
    },
  );

  app.delete(
    '/memories/:memory_id/associations/:association_id',
    {
      schema: {
        tags,
        summary: 'Remove one edge of the memory (either end)',
        params: AssociationParams,
        querystring: WorkspaceQuery,
        response: { 204: Type.Null(), ...commonErrors },
      },
    },
    async (request, reply) => {
      const workspaceId = await workspaceOf(request, request.params.memory_id);
      await associations.remove(workspaceId, request.params.memory_id, request.params.association_id);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/memories/:memory_id/traverse',
    {
      schema: {
        tags,
        summary:
          'Paths from a memory through its associations, breadth-first and strongest first, bounded by depth, paths and nodes; cycles end a path',
        params: MemoryParams,
        body: TraverseBody,
        response: { 200: TraverseResponse, 409: ErrorResponse, ...commonErrors },
      },
    },
    async (request) => {
      const workspaceId = await workspaceOf(request, request.params.memory_id);
      return associations.traverse(workspaceId, request.params.memory_id, toTraverseOptions(request.body));
    },
  );

  app.get(
    '/memories/:memory_id/trace',
    {
      schema: {
        tags,
        summary:
          'Provenance: where the memory came from, its relationship categories, its associations and the articles citing it',
        params: MemoryParams,
        querystring: WorkspaceQuery,
        response: { 200: TraceResponse, ...commonErrors },
      },
    },
    async (request) => {
      return associations.trace(await workspaceOf(request, request.params.memory_id), request.params.memory_id);
    },
  );
}

import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { SandboxScope } from '../../core/context/index.js';
import { AppError, invalid } from '../../errors.js';
import type { CoreServices } from '../../services.js';
import { commonErrors, ErrorResponse } from '../schemas/common.js';
import {
  BoundVariable,
  ExecuteBody,
  ExecuteResponse,
  InjectBody,
  InspectBody,
  InspectQuery,
  LoadBody,
  LoadResponse,
  QueryBody,
  QueryResponse,
  RlmBody,
  RlmResponse,
  SessionHeader,
  StatusResponse,
  toExecuteRequest,
  toLoadRequest,
  toQueryRequest,
  toRlmRequest,
  VariableDetail,
  VariablesOverview,
} from '../schemas/context.js';
import { parseClientJson } from '../json-body.js';
import { sessionAccess } from '../request-context.js';
import type { App } from '../server.js';

const tags = ['context'];
const sessionErrors = { 410: ErrorResponse, ...commonErrors };
/** query and rlm call the language model: 502 when it fails, 503 when none is configured. */
const modelErrors = { ...sessionErrors, 502: ErrorResponse };

/** The context environment: one Python sandbox per session (X-Session-ID), in the session's workspace. */
export function contextRoutes(app: App, services: CoreServices): void {
  const { sandboxes, context } = services;
  const scopeOf = async (request: FastifyRequest): Promise<SandboxScope> => {
    const access = await sessionAccess(services, request);
    return { sessionId: access.session.id, workspaceId: access.workspaceId };
  };

  app.post(
    '/context/execute',
    {
      schema: {
        tags,
        summary:
          'Run Python in the session’s sandbox; variables persist between calls. A Python exception is a 200 with `error`',
        headers: SessionHeader,
        body: ExecuteBody,
        response: { 200: ExecuteResponse, ...sessionErrors },
      },
    },
    async (request) => {
      return sandboxes.execute((await scopeOf(request)).sessionId, toExecuteRequest(request.body));
    },
  );

  app.post(
    '/context/inspect',
    {
      schema: {
        tags,
        summary: 'One variable (type, preview, size) or, without `variable`, an overview of all',
        headers: SessionHeader,
        querystring: InspectQuery,
        body: Type.Optional(InspectBody),
        response: { 200: Type.Union([VariableDetail, VariablesOverview]), ...sessionErrors },
      },
    },
    async (request) => {
      const { sessionId } = await scopeOf(request);
      const variable = request.query.variable ?? request.body?.variable;
      return sandboxes.inspect(sessionId, variable, request.query.preview_chars ?? request.body?.preview_chars);
    },
  );

  app.post(
    '/context/load',
    {
      schema: {
        tags,
        summary: 'Search the session’s workspace and bind the memories found to a variable (a list of dicts)',
        headers: SessionHeader,
        body: LoadBody,
        response: { 200: LoadResponse, ...sessionErrors },
      },
    },
    async (request) => {
      return context.load(await scopeOf(request), toLoadRequest(request.body));
    },
  );

  app.post(
    '/context/inject',
    {
      schema: {
        tags,
        summary: 'Set a variable to a JSON value (objects become dicts, arrays lists)',
        headers: SessionHeader,
        body: InjectBody,
        response: { 200: BoundVariable, ...sessionErrors },
      },
    },
    async (request) => {
      const { sessionId } = await scopeOf(request);
      const { key, value, parse_json } = request.body;
      const bound = await sandboxes.setVariable(
        sessionId,
        key,
        parse_json ? parseJsonValue(value, services.config.jsonMaxDepth) : value,
      );
      return { ...bound, key: bound.variable };
    },
  );

  app.post(
    '/context/query',
    {
      schema: {
        tags,
        summary: 'Ask the language model about the contents of sandbox variables; optionally store the answer',
        headers: SessionHeader,
        body: QueryBody,
        response: { 200: QueryResponse, ...modelErrors },
      },
    },
    async (request) => {
      return context.query(await scopeOf(request), toQueryRequest(request.body));
    },
  );

  app.post(
    '/context/rlm',
    {
      schema: {
        tags,
        summary:
          'Recursive reasoning: the model writes code, the sandbox runs it, the model judges the output, until the goal is reached',
        headers: SessionHeader,
        body: RlmBody,
        response: { 200: RlmResponse, ...modelErrors },
      },
    },
    async (request) => {
      return context.rlm(await scopeOf(request), toRlmRequest(request.body));
    },
  );

  app.get(
    '/context/status',
    {
      schema: {
        tags,
        summary: 'Whether the session has a sandbox, its variables, sizes, limit and counters',
        headers: SessionHeader,
        response: { 200: StatusResponse, ...sessionErrors },
      },
    },
    async (request) => {
      const status = await sandboxes.status((await scopeOf(request)).sessionId);
      // `active` and `execution_count`: the names client libraries read.
      return { ...status, active: status.exists, execution_count: status.metadata?.exec_count ?? 0 };
    },
  );

  app.post(
    '/context/checkpoint',
    {
      schema: {
        tags,
        summary: 'Save the sandbox’s picklable variables to the database (restored after a restart or on another node)',
        headers: SessionHeader,
        response: { 204: Type.Null(), ...sessionErrors },
      },
    },
    async (request, reply) => {
      await sandboxes.checkpoint((await scopeOf(request)).sessionId);
      return reply.status(204).send(null);
    },
  );

  app.delete(
    '/context/cleanup',
    {
      schema: {
        tags,
        summary: 'Remove the sandbox and its checkpoint',
        headers: SessionHeader,
        response: { 204: Type.Null(), ...sessionErrors },
      },
    },
    async (request, reply) => {
      await sandboxes.cleanup((await scopeOf(request)).sessionId);
      return reply.status(204).send(null);
    },
  );
}

/** inject with parse_json: the value is JSON text. */
function parseJsonValue(value: unknown, maxDepth: number): unknown {
  if (typeof value !== 'string') throw invalid('/body/value', 'must be a string of JSON when parse_json is true');
  try {
    return parseClientJson(value, maxDepth, '/body/value');
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw invalid('/body/value', `is not valid JSON: ${(error as Error).message}`);
  }
}

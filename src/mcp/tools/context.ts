import { Type } from 'typebox';
import type { SandboxScope } from '../../core/context/index.js';
import {
  ExecuteBody,
  InspectBody,
  LoadBody,
  QueryBody,
  RlmBody,
  toExecuteRequest,
  toLoadRequest,
  toQueryRequest,
  toRlmRequest,
} from '../../http/schemas/context.js';
import type { ToolContext } from '../caller.js';
import { defineTool } from '../tool.js';
import { SessionId } from './arguments.js';

/** The context environment belongs to a session: its sandbox, in the session's workspace. */
async function sandboxOf(sessionId: string, { session }: ToolContext): Promise<SandboxScope> {
  const access = await session(sessionId);
  return { sessionId: access.session.id, workspaceId: access.workspaceId };
}

const SANDBOX = 'Each session has its own Python sandbox (no network, no files); variables persist between calls.';

export const contextExecute = defineTool({
  name: 'context_execute',
  title: 'Run Python',
  description: `Run Python code in the session’s sandbox. ${SANDBOX} The value of a trailing expression (or result_var) is returned; a Python exception comes back in \`error\`.`,
  input: Type.Object({ session_id: SessionId, ...ExecuteBody.properties }, { additionalProperties: false }),
  effect: 'writes',
  async run(args, context) {
    const { sessionId } = await sandboxOf(args.session_id, context);
    return context.services.sandboxes.execute(sessionId, toExecuteRequest(args));
  },
});

export const contextLoad = defineTool({
  name: 'context_load',
  title: 'Load memories into Python',
  description: `Search the session’s workspace and bind the memories found to a Python variable (a list of dicts), to analyse them with context_execute or context_query. ${SANDBOX}`,
  input: Type.Object({ session_id: SessionId, ...LoadBody.properties }, { additionalProperties: false }),
  effect: 'writes',
  async run(args, context) {
    return context.services.context.load(await sandboxOf(args.session_id, context), toLoadRequest(args));
  },
});

export const contextInspect = defineTool({
  name: 'context_inspect',
  title: 'Inspect Python variables',
  description: 'One sandbox variable (type, preview, size) or, without `variable`, an overview of all of them.',
  input: Type.Object({ session_id: SessionId, ...InspectBody.properties }, { additionalProperties: false }),
  effect: 'reads',
  async run(args, context) {
    const { sessionId } = await sandboxOf(args.session_id, context);
    return context.services.sandboxes.inspect(sessionId, args.variable, args.preview_chars);
  },
});

export const contextQuery = defineTool({
  name: 'context_query',
  title: 'Ask about Python variables',
  description:
    'Ask the language model a question about the contents of sandbox variables (e.g. memories loaded with context_load); result_var stores the answer. Needs a configured language model.',
  input: Type.Object({ session_id: SessionId, ...QueryBody.properties }, { additionalProperties: false }),
  effect: 'writes',
  async run(args, context) {
    return context.services.context.query(await sandboxOf(args.session_id, context), toQueryRequest(args));
  },
});

export const contextRlm = defineTool({
  name: 'context_rlm',
  title: 'Reason recursively over memories',
  description:
    'Pursue a goal by recursive reasoning: the language model writes Python, the sandbox runs it (over memories loaded by memory_query), the model ' +
    'judges the output, until the goal is reached or max_iterations. Returns the result and a trace. Needs a configured language model.',
  input: Type.Object({ session_id: SessionId, ...RlmBody.properties }, { additionalProperties: false }),
  effect: 'writes',
  async run(args, context) {
    return context.services.context.rlm(await sandboxOf(args.session_id, context), toRlmRequest(args));
  },
});

export const contextStatus = defineTool({
  name: 'context_status',
  title: 'Sandbox status',
  description: 'Whether the session has a sandbox, its variables and their sizes, its memory limit and call counters.',
  input: Type.Object({ session_id: SessionId }, { additionalProperties: false }),
  effect: 'reads',
  async run(args, context) {
    return context.services.sandboxes.status((await sandboxOf(args.session_id, context)).sessionId);
  },
});

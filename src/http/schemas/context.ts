import { Type, type Static } from 'typebox';
import type { LoadRequest, QueryRequest, RlmRequest } from '../../core/context/index.js';
import type { ExecuteRequest } from '../../sandbox/index.js';
import { NonBlank, Nullable, Score01, StringEnum, Timestamp } from './common.js';
import { MemoryTypeField, Tags } from './memory.js';

/**
 * A Python variable name. Checked coarsely here (the sandbox also refuses keywords and dunder names,
 * with the same 422), so a bad name fails before any work is done.
 */
export const PythonName = (description: string) =>
  Type.String({ pattern: '^[\\p{L}_][\\p{L}\\p{N}_]*$', maxLength: 256, description });

const VariableNames = (description: string) =>
  Type.Array(PythonName('a variable of the sandbox'), { maxItems: 100, description });

/** Documents the header every context route needs (its absence is a 400, checked by the route). */
export const SessionHeader = Type.Object({
  'x-session-id': Type.Optional(Type.String({ description: 'the session whose sandbox this is (required)' })),
});

export const ExecuteBody = Type.Object(
  {
    code: Type.String({
      maxLength: 1_000_000,
      description: 'Python source; the value of a trailing expression is the result',
    }),
    result_var: Type.Optional(PythonName('return this variable instead of the trailing expression')),
    return_result: Type.Optional(Type.Boolean({ default: true })),
    max_return_chars: Type.Optional(Type.Integer({ minimum: 100, maximum: 100_000, default: 10_000 })),
  },
  { additionalProperties: false },
);

export const ExecuteResponse = Type.Object({
  output: Type.String({ description: 'stdout and stderr as written, capped' }),
  result: Nullable(
    Type.String({ description: 'strings as they are, other values as JSON when possible, else repr()' }),
  ),
  error: Nullable(
    Type.String({ description: 'the Python exception with its traceback, or a time or memory limit report' }),
  ),
  variables_changed: Type.Array(Type.String()),
});

const inspectFields = {
  variable: Type.Optional(PythonName('one variable; omit for an overview of all')),
  // No schema default: it would fill the query string and hide a body's value.
  preview_chars: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000, description: 'default 200' })),
};

/** docs/specification.md §4 passes these in the query string; a JSON body with the same fields is accepted too. */
export const InspectQuery = Type.Object(inspectFields, { additionalProperties: false });
export const InspectBody = Type.Object(inspectFields, { additionalProperties: false });

export const VariableDetail = Type.Object({
  variable: Type.String(),
  type: Type.String(),
  preview: Type.String(),
  size_bytes: Type.Integer(),
});

export const VariablesOverview = Type.Object({
  variable_count: Type.Integer(),
  variables: Type.Record(Type.String(), Type.String(), {
    description: 'name to a short description, e.g. `list, 3 items`',
  }),
  total_size_bytes: Type.Integer(),
});

export const LoadBody = Type.Object(
  {
    var: PythonName('the variable that receives the memories (a list of dicts)'),
    query: NonBlank({ description: 'what to search for in the session’s workspace' }),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 50 })),
    types: Type.Optional(Type.Array(MemoryTypeField, { maxItems: 4 })),
    tags: Type.Optional(Tags),
    min_relevance: Type.Optional(Score01('leave out memories less similar to the query')),
    include_embeddings: Type.Optional(
      Type.Boolean({ default: false, description: 'add each memory’s vector as `embedding`' }),
    ),
  },
  { additionalProperties: false },
);

export const LoadResponse = Type.Object({
  count: Type.Integer(),
  variable: Type.String(),
  var: Type.String({ description: 'the same as variable' }),
  query: Type.String(),
  total_available: Type.Integer(),
});

export const InjectBody = Type.Object(
  {
    key: PythonName('the variable to set'),
    value: Type.Unknown({ description: 'any JSON value; objects become dicts, arrays lists' }),
    parse_json: Type.Optional(
      Type.Boolean({ default: false, description: 'the value is a string of JSON to parse first' }),
    ),
  },
  { additionalProperties: false },
);

export const BoundVariable = Type.Object({
  variable: Type.String(),
  key: Type.String({ description: 'the same as variable (the name client libraries read)' }),
  type: Type.String(),
  preview: Type.String(),
});

export const QueryBody = Type.Object(
  {
    prompt: NonBlank({ maxLength: 100_000 }),
    variables: Type.Optional(VariableNames('variables whose contents go with the prompt')),
    max_context_chars: Type.Optional(
      Type.Integer({ minimum: 100, maximum: 500_000, default: 100_000, description: 'shared among the variables' }),
    ),
    result_var: Type.Optional(PythonName('store the answer in this variable')),
  },
  { additionalProperties: false },
);

export const QueryResponse = Type.Object({
  response: Type.String(),
  variables_used: Type.Array(Type.String()),
  variables_included: Type.Array(Type.String(), { description: 'the same as variables_used' }),
  tokens_used: Type.Integer({
    description: 'tokens the model read and wrote, as it reported them (0 when it did not)',
  }),
  result_var: Nullable(Type.String()),
});

export const RLM_DETAIL_LEVELS = ['minimal', 'standard', 'verbose', 'brief', 'detailed'] as const;

export const RlmBody = Type.Object(
  {
    goal: NonBlank({ maxLength: 100_000 }),
    memory_query: Type.Optional(NonBlank({ description: 'load the memories it finds into `memories` first' })),
    memory_limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 100 })),
    max_iterations: Type.Optional(Type.Integer({ minimum: 1, maximum: 50, default: 10 })),
    variables: Type.Optional(VariableNames('variables shown to the model up front')),
    result_var: Type.Optional(PythonName('store the result in this variable')),
    detail_level: Type.Optional(
      StringEnum(RLM_DETAIL_LEVELS, {
        default: 'standard',
        description:
          'minimal (= brief): iteration and action only; standard: fields cut to 2,000 chars; verbose (= detailed): everything',
      }),
    ),
  },
  { additionalProperties: false },
);

const RlmTraceEntry = Type.Object({
  iteration: Type.Integer(),
  action: StringEnum(['continue', 'achieved', 'failed'] as const),
  generated_code: Type.Optional(Type.String()),
  exec_output: Type.Optional(Type.String()),
  variables_changed: Type.Optional(Type.Array(Type.String())),
  evaluation: Type.Optional(Type.String()),
});

export const RlmResponse = Type.Object({
  result: Nullable(Type.String()),
  iterations: Type.Integer(),
  goal_achieved: Type.Boolean(),
  trace: Type.Array(RlmTraceEntry),
});

export const StatusResponse = Type.Object({
  exists: Type.Boolean(),
  active: Type.Boolean({ description: 'the same as exists' }),
  execution_count: Type.Integer({ description: 'the same as metadata.exec_count (0 without a sandbox)' }),
  variable_count: Type.Integer(),
  variables: Type.Array(Type.String()),
  total_size_bytes: Type.Integer(),
  memory_limit_bytes: Type.Integer(),
  metadata: Nullable(
    Type.Object({
      created_at: Timestamp,
      exec_count: Type.Integer(),
      total_operations: Type.Integer(),
      last_exec_at: Nullable(Timestamp),
    }),
  ),
});

/** The context environment's requests as the API states them, in core's terms: read once for every transport. */
export const toExecuteRequest = (b: Static<typeof ExecuteBody>): ExecuteRequest => ({
  code: b.code,
  resultVar: b.result_var,
  returnResult: b.return_result,
  maxReturnChars: b.max_return_chars,
});

export const toLoadRequest = (b: Static<typeof LoadBody>): LoadRequest => ({
  variable: b.var,
  query: b.query,
  limit: b.limit,
  types: b.types,
  tags: b.tags,
  minRelevance: b.min_relevance,
  includeEmbeddings: b.include_embeddings,
});

export const toQueryRequest = (b: Static<typeof QueryBody>): QueryRequest => ({
  prompt: b.prompt,
  variables: b.variables,
  maxContextChars: b.max_context_chars,
  resultVar: b.result_var,
});

export const toRlmRequest = (b: Static<typeof RlmBody>): RlmRequest => ({
  goal: b.goal,
  memoryQuery: b.memory_query,
  memoryLimit: b.memory_limit,
  maxIterations: b.max_iterations,
  variables: b.variables,
  resultVar: b.result_var,
  detailLevel: b.detail_level,
});

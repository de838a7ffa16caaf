import { AppError } from '../../errors.js';
import { requireLlm } from '../../providers/llm/index.js';
import type { LlmProvider, LlmRequest } from '../../providers/llm/types.js';
import type { SandboxManager } from '../../sandbox/index.js';
import type { ExecuteResult } from '../../sandbox/types.js';
import type { MemorySearch, MemorySearchRequest } from './memory-search.js';
import {
  QUERY_SYSTEM,
  RLM_CODE_SYSTEM,
  RLM_EVALUATION_SYSTEM,
  queryPrompt,
  rlmCodePrompt,
  rlmEvaluationPrompt,
  type ContextVariable,
  type RlmStep,
} from './prompts.js';

export interface ContextServiceOptions {
  sandboxes: SandboxManager;
  /** Null when no model is configured: query and rlm then answer provider_unavailable. */
  llm: LlmProvider | null;
  search: MemorySearch;
  /** Wall-clock budget of one rlm run. Default 120 s. */
  rlmTimeBudgetMs?: number | undefined;
}

/** A session's sandbox and the workspace its memories come from (the session's). */
export interface SandboxScope {
  sessionId: string;
  workspaceId: string;
}

export interface LoadRequest extends Omit<MemorySearchRequest, 'limit'> {
  variable: string;
  /** Default 50. */
  limit?: number | undefined;
}

export interface LoadResult {
  count: number;
  variable: string;
  /** The same as `variable` (the name client libraries read). */
  var: string;
  query: string;
  total_available: number;
}

export interface QueryRequest {
  prompt: string;
  variables?: string[];
  maxContextChars?: number;
  resultVar?: string;
}

export interface QueryResult {
  response: string;
  variables_used: string[];
  /** The same as `variables_used` (the name client libraries read). */
  variables_included: string[];
  /** Tokens the model read and wrote, as it reported them (0 when it did not). */
  tokens_used: number;
  result_var: string | null;
}

export type RlmDetailLevel = 'minimal' | 'standard' | 'verbose';
export type RlmAction = 'continue' | 'achieved' | 'failed';

export interface RlmRequest {
  goal: string;
  memoryQuery?: string;
  memoryLimit?: number;
  maxIterations?: number;
  variables?: string[];
  resultVar?: string;
  /** minimal, standard or verbose; the client library's brief and detailed are accepted too. */
  detailLevel?: string;
}

export interface RlmTraceEntry {
  iteration: number;
  generated_code: string;
  exec_output: string;
  variables_changed: string[];
  evaluation: string;
  action: RlmAction;
}

export interface RlmResult {
  result: string | null;
  iterations: number;
  goal_achieved: boolean;
  trace: (RlmTraceEntry | Pick<RlmTraceEntry, 'iteration' | 'action'>)[];
}

/** Name of the variable that holds memories loaded by `memory_query`. */
export const RLM_MEMORIES_VARIABLE = 'memories';
const DEFAULT_MAX_CONTEXT_CHARS = 100_000;
const DEFAULT_LOAD_LIMIT = 50;
const DEFAULT_RLM_MEMORY_LIMIT = 100;
/** How much of each variable the code-writing model sees up front. */
const RLM_VARIABLE_PREVIEW_CHARS = 2_000;
const RLM_RESULT_CHARS = 100_000;
/** Trace fields are cut to this size at the standard detail level. */
const STANDARD_TRACE_CHARS = 2_000;
/** How much of each earlier step's output the code-writing model sees again. */
const HISTORY_OUTPUT_CHARS = 4_000;

const DETAIL_LEVELS: Record<string, RlmDetailLevel> = {
  minimal: 'minimal',
  brief: 'minimal',
  standard: 'standard',
  verbose: 'verbose',
  detailed: 'verbose',
};

export function parseDetailLevel(level: string | undefined): RlmDetailLevel {
  const parsed = DETAIL_LEVELS[level ?? 'standard'];
  if (!parsed)
    throw new AppError('validation_error', `detail_level must be one of ${Object.keys(DETAIL_LEVELS).join(', ')}`);
  return parsed;
}

/** The context environment's language-model operations on a session's sandbox. */
export class ContextService {
  constructor(private readonly options: ContextServiceOptions) {}

  /** Searches the session's workspace and binds the memories found to a variable, as a list of dicts. */
  async load({ sessionId, workspaceId }: SandboxScope, request: LoadRequest): Promise<LoadResult> {
    const { variable, ...search } = request;
    const found = await this.options.search(workspaceId, { ...search, limit: request.limit ?? DEFAULT_LOAD_LIMIT });
    await this.options.sandboxes.setVariable(sessionId, variable, found.memories);
    return {
      count: found.memories.length,
      variable,
      var: variable,
      query: request.query,
      total_available: found.total_available,
    };
  }

  /** Sends the prompt with the named variables' contents; stores the answer in `resultVar` if given. */
  async query({ sessionId }: SandboxScope, request: QueryRequest): Promise<QueryResult> {
    const llm = requireLlm(this.options.llm, 'the context query');
    const names = request.variables ?? [];
    const perVariable = Math.floor((request.maxContextChars ?? DEFAULT_MAX_CONTEXT_CHARS) / Math.max(names.length, 1));
    const variables = await this.readVariables(sessionId, names, perVariable);
    const answer = await llm.complete({
      system: QUERY_SYSTEM,
      messages: [{ role: 'user', content: queryPrompt(request.prompt, variables) }],
    });
    if (request.resultVar) await this.options.sandboxes.setVariable(sessionId, request.resultVar, answer.text);
    const tokens = (answer.inputTokens ?? 0) + (answer.outputTokens ?? 0);
    return {
      response: answer.text,
      variables_used: names,
      variables_included: names,
      tokens_used: tokens,
      result_var: request.resultVar ?? null,
    };
  }

  /**
   * The recursive loop: the model writes code, the sandbox runs it, the model judges the output
   * (ACHIEVED, CONTINUE or FAILED). Code that sets `_goal_achieved = True` finishes the run too,
   * with `_final_result` as its result. The run also ends at max_iterations or when its time is up.
   */
  async rlm({ sessionId, workspaceId }: SandboxScope, request: RlmRequest): Promise<RlmResult> {
    const llm = requireLlm(this.options.llm, 'the recursive reasoning loop (rlm)');
    const detail = parseDetailLevel(request.detailLevel);
    const { sandboxes } = this.options;
    const deadline = Date.now() + (this.options.rlmTimeBudgetMs ?? 120_000);
    const names = [...(request.variables ?? [])];
    if (request.memoryQuery) {
      const found = await this.options.search(workspaceId, {
        query: request.memoryQuery,
        limit: request.memoryLimit ?? DEFAULT_RLM_MEMORY_LIMIT,
      });
      await sandboxes.setVariable(sessionId, RLM_MEMORIES_VARIABLE, found.memories);
      if (!names.includes(RLM_MEMORIES_VARIABLE)) names.push(RLM_MEMORIES_VARIABLE);
    }
    const variables = await this.readVariables(sessionId, names, RLM_VARIABLE_PREVIEW_CHARS);
    // Flags left by an earlier run must not end this one at its first step.
    await sandboxes.setVariable(sessionId, '_goal_achieved', false);
    await sandboxes.setVariable(sessionId, '_final_result', null);

    const trace: RlmTraceEntry[] = [];
    const history: RlmStep[] = [];
    let lastRun: ExecuteResult | undefined;
    for (let iteration = 1; iteration <= (request.maxIterations ?? 10); iteration++) {
      const written = await this.ask(llm, deadline, {
        system: RLM_CODE_SYSTEM,
        messages: [{ role: 'user', content: rlmCodePrompt(request.goal, variables, history) }],
      });
      if (written === undefined) break;
      const step: RlmStep = { code: extractCode(written), output: '' };
      lastRun = await sandboxes.execute(sessionId, { code: step.code, returnResult: true });
      step.output = describeRun(lastRun);

      const finishedByCode = (await sandboxes.getVariableText(sessionId, '_goal_achieved', 10)) === 'true';
      const judged = finishedByCode
        ? 'ACHIEVED (the code set _goal_achieved)'
        : await this.ask(llm, deadline, {
            system: RLM_EVALUATION_SYSTEM,
            messages: [{ role: 'user', content: rlmEvaluationPrompt(request.goal, step) }],
          });
      const evaluation = judged?.trim() ?? 'not evaluated: the time budget ran out';
      const action = judged === undefined ? 'continue' : actionFor(evaluation);
      trace.push({
        iteration,
        generated_code: step.code,
        exec_output: step.output,
        variables_changed: lastRun.variables_changed,
        evaluation,
        action,
      });
      history.push({ code: step.code, output: cut(step.output, HISTORY_OUTPUT_CHARS) });
      if (action !== 'continue' || judged === undefined) break;
    }

    const goalAchieved = trace.at(-1)?.action === 'achieved';
    const finalResult = await sandboxes.getVariableText(sessionId, '_final_result', RLM_RESULT_CHARS);
    const result = finalResult ?? lastRun?.result ?? (lastRun?.output || null);
    if (request.resultVar && result !== null) await sandboxes.setVariable(sessionId, request.resultVar, result);
    return {
      result,
      iterations: trace.length,
      goal_achieved: goalAchieved,
      trace: trace.map((entry) => trimEntry(entry, detail)),
    };
  }

  private async readVariables(sessionId: string, names: string[], maxChars: number): Promise<ContextVariable[]> {
    const variables: ContextVariable[] = [];
    for (const name of names) {
      const text = await this.options.sandboxes.getVariableText(sessionId, name, maxChars);
      if (text === null) throw new AppError('not_found', `variable '${name}' is not defined in this session's sandbox`);
      variables.push({ name, text });
    }
    return variables;
  }

  /** One model call within the run's time budget; undefined once the budget is spent. */
  private async ask(llm: LlmProvider, deadline: number, request: LlmRequest): Promise<string | undefined> {
    const remaining = deadline - Date.now();
    if (remaining <= 0) return undefined;
    const signal = AbortSignal.timeout(remaining);
    try {
      return (await llm.complete({ ...request, signal })).text;
    } catch (error) {
      // The timer may fire a millisecond before Date.now() reaches the deadline: the signal says whether it did.
      if (signal.aborted || Date.now() >= deadline) return undefined;
      throw error;
    }
  }
}

/** The code in a model's reply: its python blocks, else its fenced blocks, else the whole reply. */
export function extractCode(reply: string): string {
  const blocks = [...reply.matchAll(/```([\w+-]*)[^\n]*\n([\s\S]*?)```/g)].map((match) => ({
    language: (match[1] ?? '').toLowerCase(),
    code: match[2] ?? '',
  }));
  const python = blocks.filter((block) => block.language === 'python' || block.language === 'py');
  const chosen = python.length > 0 ? python : blocks.filter((block) => block.language === '');
  return (chosen.length > 0 ? chosen.map((block) => block.code).join('\n') : reply).trim();
}

function actionFor(evaluation: string): RlmAction {
  const verdict = /\b(ACHIEVED|CONTINUE|FAILED)\b/i.exec(evaluation)?.[1]?.toUpperCase();
  return verdict === 'ACHIEVED' ? 'achieved' : verdict === 'FAILED' ? 'failed' : 'continue';
}

function describeRun(run: ExecuteResult): string {
  const parts = [run.output.trimEnd()];
  if (run.result !== null) parts.push(`Result: ${run.result}`);
  if (run.error !== null) parts.push(`Error:\n${run.error}`);
  return parts.filter((part) => part !== '').join('\n') || '(no output)';
}

function trimEntry(entry: RlmTraceEntry, detail: RlmDetailLevel): RlmResult['trace'][number] {
  if (detail === 'minimal') return { iteration: entry.iteration, action: entry.action };
  if (detail === 'verbose') return entry;
  const { generated_code, exec_output, evaluation } = entry;
  return {
    ...entry,
    generated_code: cut(generated_code, STANDARD_TRACE_CHARS),
    exec_output: cut(exec_output, STANDARD_TRACE_CHARS),
    evaluation: cut(evaluation, STANDARD_TRACE_CHARS),
  };
}

function cut(text: string, maxChars: number): string {
  return text.length > maxChars ? `${text.slice(0, maxChars)}... [${text.length} characters in all]` : text;
}

import { AppError } from '../../errors.js';
import type { LlmProvider, LlmRequest, LlmResponse } from './types.js';
import { excerpt } from './excerpt.js';

export interface LlmJsonResponse<T> {
  value: T;
  /** Summed over both calls when a corrective retry was needed. */
  inputTokens: number | undefined;
  outputTokens: number | undefined;
}

type Interpretation<T> = { ok: true; value: T } | { ok: false; problem: string };

/**
 * Asks for JSON and returns it validated by `parse` (which throws on a wrong shape, e.g. a zod
 * schema's `parse`). An answer without usable JSON gets one corrective follow-up that quotes the
 * problem; a second failure is a `provider_error`. Each of the (at most two) calls has the
 * provider's full time budget.
 */
export async function completeJson<T>(
  llm: LlmProvider,
  request: LlmRequest,
  parse: (value: unknown) => T,
): Promise<LlmJsonResponse<T>> {
  const jsonRequest: LlmRequest = { ...request, json: true };
  const first = await llm.complete(jsonRequest);
  const firstTry = interpret(first.text, parse);
  if (firstTry.ok) return { value: firstTry.value, ...usageOf(first) };

  const second = await llm.complete({
    ...jsonRequest,
    messages: [
      ...request.messages,
      { role: 'assistant', content: first.text },
      {
        role: 'user',
        content: `Your previous answer could not be used: ${firstTry.problem}. Reply again with only the corrected JSON value, no prose and no Markdown code fences.`,
      },
    ],
  });
  const secondTry = interpret(second.text, parse);
  if (secondTry.ok) return { value: secondTry.value, ...usageOf(first, second) };
  throw new AppError(
    'provider_error',
    `LLM provider ${llm.name} (model ${llm.model}) gave no usable JSON, even after a corrective retry: ${secondTry.problem}; the answer began: ${excerpt(second.text, 200)}`,
  );
}

/**
 * The first JSON object or array in `text`, or undefined. Models wrap JSON in prose and code
 * fences, and prose has brackets of its own ("[see above]"), so candidates that do not parse are
 * skipped. An unterminated candidate ends the search: it is a truncated answer, and a fragment
 * inside it would be a wrong answer rather than a missing one.
 */
export function extractJson(text: string): unknown {
  for (let start = 0; start < text.length; start++) {
    if (text[start] !== '{' && text[start] !== '[') continue;
    const end = closingIndex(text, start);
    if (end === undefined) return undefined;
    if (end === -1) continue;
    try {
      return JSON.parse(text.slice(start, end + 1));
    } catch {
      // Balanced but not JSON, e.g. "{placeholder}": keep looking.
    }
  }
  return undefined;
}

/** Index of the bracket closing the one at `start`; -1 on a mismatched bracket; undefined if the text ends first. */
function closingIndex(text: string, start: number): number | undefined {
  const expected: string[] = [];
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const char = text[i];
    if (inString) {
      if (char === '\\') i++;
      else if (char === '"') inString = false;
    } else if (char === '"') {
      inString = true;
    } else if (char === '{' || char === '[') {
      expected.push(char === '{' ? '}' : ']');
    } else if (char === '}' || char === ']') {
      if (expected.pop() !== char) return -1;
      if (expected.length === 0) return i;
    }
  }
  return undefined;
}

function interpret<T>(text: string, parse: (value: unknown) => T): Interpretation<T> {
  const found = extractJson(text);
  if (found === undefined) return { ok: false, problem: 'it contains no complete JSON object or array' };
  try {
    return { ok: true, value: parse(found) };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { ok: false, problem: `its JSON does not have the expected shape (${excerpt(reason)})` };
  }
}

function usageOf(...responses: LlmResponse[]): Pick<LlmJsonResponse<unknown>, 'inputTokens' | 'outputTokens'> {
  return {
    inputTokens: sum(responses.map((r) => r.inputTokens)),
    outputTokens: sum(responses.map((r) => r.outputTokens)),
  };
}

function sum(counts: (number | undefined)[]): number | undefined {
  const known = counts.filter((n): n is number => n !== undefined);
  return known.length === 0 ? undefined : known.reduce((a, b) => a + b, 0);
}

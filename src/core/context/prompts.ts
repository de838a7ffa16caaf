/** Every prompt the context environment sends to a language model. */

export interface ContextVariable {
  name: string;
  text: string;
}

export interface RlmStep {
  code: string;
  output: string;
}

export const QUERY_SYSTEM =
  'You answer questions about data held in a Python analysis session. The data is given as named ' +
  'variables. Use only that data and say so when it does not contain the answer.';

export function queryPrompt(prompt: string, variables: ContextVariable[]): string {
  if (variables.length === 0) return prompt;
  return `${prompt}\n\n${variables.map(variableBlock).join('\n\n')}`;
}

export const RLM_CODE_SYSTEM = `You reach a goal by writing Python code that runs in a persistent sandbox (CPython, standard library only, no files or network). Variables survive between steps.
Available inside the sandbox:
- llm_query(prompt: str) -> str asks a language model (use it on small pieces of text, e.g. to summarise or classify).
- recall(query: str, limit: int = 10) -> list[dict] searches the session's memories.
Print what you need to see: the printed output is all you get back.
When the goal is reached, set _goal_achieved = True and put the answer in _final_result.
Reply with exactly one \`\`\`python code block and nothing else.`;

export function rlmCodePrompt(goal: string, variables: ContextVariable[], history: RlmStep[]): string {
  const parts = [`Goal: ${goal}`];
  if (variables.length > 0)
    parts.push(`Variables already in the sandbox:\n\n${variables.map(variableBlock).join('\n\n')}`);
  history.forEach((step, index) => {
    parts.push(
      `Step ${index + 1} code:\n\`\`\`python\n${step.code}\n\`\`\`\nStep ${index + 1} output:\n${step.output}`,
    );
  });
  parts.push(history.length === 0 ? 'Write the code for the first step.' : 'Write the code for the next step.');
  return parts.join('\n\n');
}

export const RLM_EVALUATION_SYSTEM =
  'You judge whether a goal has been reached from the code that ran and its output. Answer on the ' +
  'first line with one word: ACHIEVED (the output contains the answer), CONTINUE (progress is ' +
  'possible with more steps) or FAILED (the goal cannot be reached). Give one short reason on the second line.';

export function rlmEvaluationPrompt(goal: string, step: RlmStep): string {
  return `Goal: ${goal}\n\nCode:\n\`\`\`python\n${step.code}\n\`\`\`\n\nOutput:\n${step.output}`;
}

function variableBlock({ name, text }: ContextVariable): string {
  return `### ${name}\n${text}`;
}

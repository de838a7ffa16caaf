/**
 * How an agent uses memd well, said once: the server's instructions (which clients show the model when it
 * connects) and the opening of the `use_memory` prompt.
 */
export const INSTRUCTIONS = [
  'memd is long-term memory that outlasts this conversation.',
  'Before answering anything earlier work may have settled (the user, the project, past decisions and fixes), call `recall`; for a question that needs several memories put together, `reflect`.',
  'When you learn something durable (a fact about the user or the project, a decision and why, a fix, a preference, how something is done), call `remember` with one self-contained statement.',
  'Link related memories with `associate` (a fix `solves` a problem, a decision `supersedes` an older one); correct a wrong memory with `update_memory`, or `forget` it.',
  'For a longer task, `session_start` gives you working memory (`working_memory_set`) that `session_commit` turns into long-term memories; `briefing` tells you what happened lately.',
].join(' ');

export const PRACTICES = `How to remember well:
- One statement per memory, understandable on its own: who or what, the fact, and when or why if it matters ("The user prefers pnpm over npm for this repository", not "they prefer pnpm").
- type: semantic for facts and preferences (the default), episodic for what happened, procedural for how something is done.
- importance: 0.8-1.0 for what must not be forgotten (decisions, constraints, the user's explicit wishes), 0.5 by default, lower for nice-to-know.
- tags for the topic (a project, a component), so that recall can filter on them.
- Do not store secrets (keys, passwords), nor chatter that will not matter in a week.
- When a new fact replaces an old one, update_memory or forget the old one, or associate the new one to it with \`supersedes\`; contradictions_list shows pairs that disagree.
- Recall with the words the answer would contain; narrow with types, tags or created_after when results are broad.`;

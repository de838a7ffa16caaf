import { Type } from 'typebox';
import { RecallBody, ReflectBody, toRecallRequest, toReflectRequest } from '../../http/schemas/recall.js';
import { defineTool } from '../tool.js';
import { recallForModel } from './for-model.js';
import { ThroughSession, WorkspaceArg } from './arguments.js';

export const recall = defineTool({
  name: 'recall',
  title: 'Recall memories',
  description:
    'Find memories relevant to a question or topic, by meaning and by words, expanded over their associations. Use it before answering anything that ' +
    'earlier work, the user or the project may have settled. Filters: types, subtypes, tags (all must match), context_id, created_after/before; ' +
    'tolerance or min_relevance set how close a match must be; detail_level abstract/overview returns shorter text. Results come best first with relevance_score; one whose match_signals hold ' +
    '"contradicted" has a later memory saying otherwise (an unresolved contradiction), placed before it when both are found.',
  input: Type.Object(
    { ...RecallBody.properties, session_id: ThroughSession, workspace_id: WorkspaceArg },
    { additionalProperties: false },
  ),
  effect: 'reads',
  async run(args, { services, scope }) {
    return recallForModel(
      await services.search.recall(await scope(args.workspace_id, args.session_id), toRecallRequest(args)),
    );
  },
});

export const reflect = defineTool({
  name: 'reflect',
  title: 'Reflect on memories',
  description:
    'Answer a question from what is remembered: recalls the relevant memories and synthesises an answer citing them (with a language model configured; ' +
    'otherwise quotes the memories and says so in `synthesis`). Use it for questions that need several memories put together.',
  input: Type.Object(
    { ...ReflectBody.properties, session_id: ThroughSession, workspace_id: WorkspaceArg },
    { additionalProperties: false },
  ),
  effect: 'reads',
  async run(args, { services, scope }) {
    return services.search.reflect(await scope(args.workspace_id, args.session_id), toReflectRequest(args));
  },
});

import { Type } from 'typebox';
import type { Briefing } from '../../core/sessions/briefing.js';
import {
  BriefingQuery,
  CommitBody,
  CreateSessionBody,
  toBriefingOptions,
  toCommitOptions,
  toSessionStart,
  WorkingMemoryBody,
} from '../../http/schemas/session.js';
import { defineTool } from '../tool.js';
import { SessionId, WorkspaceArg } from './arguments.js';

/** A briefing without the second names of its lists that REST client libraries read: a model reads each once. */
const briefingView = ({
  memories: _sameAsRecent,
  contradictions_detected: _sameAsContradictions,
  ...briefing
}: Briefing) => briefing;

export const briefing = defineTool({
  name: 'briefing',
  title: 'Briefing',
  description:
    'What happened in the workspace lately: a plain-text summary, the newest memories, open chat threads and unresolved contradictions. ' +
    'Read it when starting work to pick up where earlier sessions left off.',
  input: Type.Object({ ...BriefingQuery.properties, workspace_id: WorkspaceArg }, { additionalProperties: false }),
  effect: 'reads',
  async run(args, { services, scope }) {
    return briefingView(await services.sessions.briefing(await scope(args.workspace_id), toBriefingOptions(args)));
  },
});

export const sessionStart = defineTool({
  name: 'session_start',
  title: 'Start a session',
  description:
    'Start a working session: it holds working memory (key/value notes) and gives writes made through it (session_id) its context and user. ' +
    'It expires after ttl_seconds without use (default one hour). With briefing: true it also returns a briefing of the workspace.',
  input: Type.Object({ ...CreateSessionBody.properties, workspace_id: WorkspaceArg }, { additionalProperties: false }),
  effect: 'writes',
  async run(args, { services, scope }) {
    const { input, briefing } = toSessionStart(args);
    const started = await services.sessions.start(await scope(args.workspace_id), input, briefing);
    return { session: started.session, briefing: started.briefing && briefingView(started.briefing) };
  },
});

export const sessionCommit = defineTool({
  name: 'session_commit',
  title: 'Commit a session',
  description:
    'Turn the session’s working memory into long-term memories: each entry is scored, categorised and checked for duplicates; those at or above ' +
    'min_importance are stored. The session stays open.',
  input: Type.Object(
    { session_id: SessionId, ...CommitBody.properties, workspace_id: WorkspaceArg },
    { additionalProperties: false },
  ),
  effect: 'writes',
  async run(args, { services, object }) {
    const access = await object('session', args.session_id, args.workspace_id);
    return services.sessions.commitOwned(access, args.session_id, toCommitOptions(args));
  },
});

export const sessionEnd = defineTool({
  name: 'session_end',
  title: 'End a session',
  description:
    'End a session: its working memory and its Python sandbox go; memories stored or committed stay. Commit first to keep working-memory notes.',
  input: Type.Object({ session_id: SessionId, workspace_id: WorkspaceArg }, { additionalProperties: false }),
  effect: 'deletes',
  async run({ session_id, workspace_id }, { services, object }) {
    await services.sessions.end(await object('session', session_id, workspace_id), session_id);
    return { session_id, ended: true };
  },
});

export const workingMemoryGet = defineTool({
  name: 'working_memory_get',
  title: 'Read working memory',
  description: 'The session’s working memory: every live entry (key to value), or only `key`.',
  input: Type.Object(
    {
      session_id: SessionId,
      key: Type.Optional(Type.String({ minLength: 1, maxLength: 512, description: 'one entry; omit for all' })),
      workspace_id: WorkspaceArg,
    },
    { additionalProperties: false },
  ),
  effect: 'reads',
  async run({ session_id, key, workspace_id }, { services, object }) {
    return services.sessions.workingMemory(await object('session', session_id, workspace_id), session_id, key);
  },
});

export const workingMemorySet = defineTool({
  name: 'working_memory_set',
  title: 'Write working memory',
  description:
    'Set a working-memory entry of the session (any JSON value): scratch notes for the task at hand, optionally expiring after ttl_seconds.',
  input: Type.Object(
    { session_id: SessionId, ...WorkingMemoryBody.properties, workspace_id: WorkspaceArg },
    { additionalProperties: false },
  ),
  effect: 'writes',
  async run({ session_id, key, value, ttl_seconds, workspace_id }, { services, object }) {
    return services.sessions.putOwnedEntry(
      await object('session', session_id, workspace_id),
      session_id,
      key,
      value,
      ttl_seconds ?? null,
    );
  },
});

import { Type } from 'typebox';
import { Identifier } from '../../http/schemas/common.js';

/**
 * Arguments MCP tools add to the API's request fields: the ids an HTTP route reads from its path, and the
 * workspace, which an MCP client cannot put in a query string.
 */
const RecordId = (description: string) => Type.String({ minLength: 1, maxLength: 256, description });

export const MemoryId = RecordId('the memory (mem_…)');
export const ThreadId = RecordId('the chat thread (thread_…)');
export const SessionId = RecordId('a live session (session_start returns it)');
export const ContradictionId = RecordId('the contradiction (ctr_…)');

/** Through a session: a write takes its context and user, a search prefers its context; either keeps it alive. */
export const ThroughSession = Type.Optional(RecordId('a live session this call works through (optional)'));

export const WorkspaceArg = Type.Optional(
  Identifier(
    'Workspace; default: the X-Workspace-ID (or workspace option) of this MCP connection, else the API key’s only workspace, else `_default`',
  ),
);

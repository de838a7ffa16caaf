import { Type } from 'typebox';
import type { MemoryUpdate } from '../../core/memories/service.js';
import { CreateMemoryBody, DeleteMemoryQuery, UpdateMemoryBody } from '../../http/schemas/memory.js';
import { defineTool } from '../tool.js';
import { MemoryId, ThroughSession, WorkspaceArg } from './arguments.js';

export const remember = defineTool({
  name: 'remember',
  title: 'Remember',
  description:
    'Store something worth knowing later: a fact, a decision, a preference, an event, how something is done. One self-contained statement per memory ' +
    '(it is found again by meaning and words). type: semantic (facts, the default), episodic (what happened), procedural (how to), working (short-lived). ' +
    'A duplicate of an existing memory is recognised and not stored twice. Returns the memory with its id.',
  input: Type.Object(
    { ...CreateMemoryBody.properties, session_id: ThroughSession, workspace_id: WorkspaceArg },
    { additionalProperties: false },
  ),
  effect: 'writes',
  async run({ workspace_id, session_id, ...draft }, { services, scope }) {
    return services.memories.remember(await scope(workspace_id, session_id), draft);
  },
});

export const updateMemory = defineTool({
  name: 'update_memory',
  title: 'Update a memory',
  description:
    'Change a memory: only the fields given change (content, importance, tags, type, subtype, metadata, pinned; status archived hides it from recall, active restores it).',
  input: Type.Object(
    { memory_id: MemoryId, ...UpdateMemoryBody.properties, workspace_id: WorkspaceArg },
    { additionalProperties: false },
  ),
  effect: 'writes',
  async run({ memory_id, workspace_id, ...change }, { services, object }) {
    const { workspaceId } = await object('memory', memory_id, workspace_id);
    return { memory: await services.memories.update(workspaceId, memory_id, change as MemoryUpdate) };
  },
});

export const forget = defineTool({
  name: 'forget',
  title: 'Forget a memory',
  description:
    'Delete a memory that is wrong or no longer wanted. Soft by default (status deleted, kept on record, no longer recalled); hard: true removes it for good.',
  input: Type.Object(
    { memory_id: MemoryId, ...DeleteMemoryQuery.properties, workspace_id: WorkspaceArg },
    { additionalProperties: false },
  ),
  effect: 'deletes',
  async run({ memory_id, hard, workspace_id }, { services, object }) {
    const { workspaceId } = await object('memory', memory_id, workspace_id);
    await services.memories.delete(workspaceId, memory_id, hard);
    return { memory_id, deleted: hard ? 'hard' : 'soft' };
  },
});

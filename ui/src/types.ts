/**
 * The API's shapes as the explorer uses them, read from the client's generated types (openapi.json). Nothing is
 * redeclared here: when a route's shape changes, `npm run openapi` regenerates the types and the explorer's type
 * check points at each use that no longer fits.
 */
import type { components, JsonBody, Operation, Query, Result } from 'memd-client';

type Schemas = components['schemas'];

export type Memory = Schemas['Memory'];
export type MemoryType = Memory['type'];
export type MemoryStatus = Memory['status'];
export type MemoryList = Result<Operation<'/v1/memories', 'get'>>;
export type MemoryListQuery = Query<Operation<'/v1/memories', 'get'>>;
export type MemoryDraft = JsonBody<Operation<'/v1/memories', 'post'>>;
export type MemoryChange = JsonBody<Operation<'/v1/memories/{memory_id}', 'put'>>;
export type Trace = Result<Operation<'/v1/memories/{memory_id}/trace', 'get'>>;

export type RecallBody = JsonBody<Operation<'/v1/memories/recall', 'post'>>;
export type RecallAnswer = Result<Operation<'/v1/memories/recall', 'post'>>;
export type RecalledMemory = RecallAnswer['memories'][number];
export type RecallExplanation = Schemas['RecallExplanation'];
export type LeftOut = RecallExplanation['left_out'][number];
export type ReflectBody = JsonBody<Operation<'/v1/memories/reflect', 'post'>>;
export type ReflectAnswer = Result<Operation<'/v1/memories/reflect', 'post'>>;

export type Workspace = Result<Operation<'/v1/workspaces', 'get'>>['workspaces'][number];
export type ImportReport = Result<Operation<'/v1/workspaces/{workspace_id}/import', 'post'>>;

export type Snapshot = Result<Operation<'/v1/graph/snapshot', 'get'>>;
export type GraphAnalysis = Result<Operation<'/v1/graph/analyze', 'post'>>;

export type SessionSummary = Result<Operation<'/v1/sessions', 'get'>>['sessions'][number];
export type Session = Result<Operation<'/v1/sessions/{session_id}', 'get'>>['session'];
export type Briefing = Result<Operation<'/v1/sessions/briefing', 'get'>>['briefing'];

export type Thread = Result<Operation<'/v1/threads', 'get'>>['threads'][number];
export type ThreadPage = Result<Operation<'/v1/threads/{thread_id}/full', 'get'>>;
export type Message = ThreadPage['messages'][number];
export type Decomposition = Result<Operation<'/v1/threads/{thread_id}/decompose', 'post'>>;

export type Contradiction = Result<
  Operation<'/v1/workspaces/{workspace_id}/contradictions', 'get'>
>['contradictions'][number];
export type Resolution = JsonBody<Operation<'/v1/contradictions/{contradiction_id}/resolve', 'post'>>['resolution'];

/** A thread's id and a message's id, read in one place (the API names them `thread_id` and `message_id`). */
export const threadIdOf = (thread: Thread): string => thread.thread_id;
export const messageIdOf = (message: Message): string => message.message_id;

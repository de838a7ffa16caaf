import type { Tool } from '../tool.js';
import { contextExecute, contextInspect, contextLoad, contextQuery, contextRlm, contextStatus } from './context.js';
import { contradictionResolve, contradictionsList } from './contradictions.js';
import { associate, traverse } from './graph.js';
import { forget, remember, updateMemory } from './memories.js';
import { exportWorkspace } from './portability.js';
import { recall, reflect } from './search.js';
import { briefing, sessionCommit, sessionEnd, sessionStart, workingMemoryGet, workingMemorySet } from './sessions.js';
import { threadAppend, threadCreate, threadDecompose, threadGet } from './threads.js';

/** Every MCP tool, in the order clients list them: the everyday ones first. */
export const TOOLS: readonly Tool[] = [
  remember,
  recall,
  reflect,
  updateMemory,
  forget,
  associate,
  traverse,
  briefing,
  sessionStart,
  sessionCommit,
  sessionEnd,
  workingMemoryGet,
  workingMemorySet,
  threadCreate,
  threadAppend,
  threadGet,
  threadDecompose,
  contextExecute,
  contextLoad,
  contextInspect,
  contextQuery,
  contextRlm,
  contextStatus,
  contradictionsList,
  contradictionResolve,
  exportWorkspace,
];

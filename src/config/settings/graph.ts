import { integer, type SettingValues } from '../setting.js';

/** Bounds of graph analysis and the knowledgebase over one workspace. */
export const GRAPH = {
  maxNodes: integer({
    name: 'MEMD_GRAPH_MAX_NODES',
    default: 20_000,
    min: 10,
    max: 1_000_000,
    meaning:
      'newest active memories taken into a graph analysis or the knowledgebase; beyond them the response says `truncated: true`',
  }),
  maxEdges: integer({
    name: 'MEMD_GRAPH_MAX_EDGES',
    default: 200_000,
    min: 10,
    max: 10_000_000,
    meaning: 'associations among them taken in (beyond: `truncated: true`)',
  }),
  workerMinSize: integer({
    name: 'MEMD_GRAPH_WORKER_MIN_SIZE',
    default: 5_000,
    min: 0,
    max: 100_000_000,
    meaning:
      'graph size (nodes + memory pairs) from which analysis runs in a worker thread instead of on the event loop',
  }),
};

export type GraphConfig = SettingValues<typeof GRAPH>;

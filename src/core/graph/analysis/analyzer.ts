import { Piscina } from 'piscina';
import { siblingModule, workerEntry } from '../../../worker-entry.js';
import { analyzeGraph, type AnalysisRequest, type AnalysisResult } from './analyze.js';

/**
 * Runs graph analyses. A small graph is analysed inline (a few milliseconds); from `workerMinSize` nodes + pairs on,
 * in one worker thread, so that Louvain and betweenness on a large workspace never hold the event loop. The worker
 * starts on first use and analyses run one at a time (queued), bounding the CPU a burst of requests can take.
 */
export class GraphAnalyzer {
  #pool: Piscina | undefined;

  constructor(private readonly workerMinSize: number) {}

  async run(request: AnalysisRequest): Promise<AnalysisResult> {
    if (request.graph.order + request.graph.a.length < this.workerMinSize) return analyzeGraph(request);
    return (await this.pool().run(request)) as AnalysisResult;
  }

  async close(): Promise<void> {
    const pool = this.#pool;
    this.#pool = undefined;
    await pool?.destroy();
  }

  private pool(): Piscina {
    if (!this.#pool) {
      const { filename, execArgv } = workerEntry(siblingModule(import.meta.url, 'worker'));
      this.#pool = new Piscina({ filename, execArgv, minThreads: 0, maxThreads: 1, idleTimeout: 60_000 });
    }
    return this.#pool;
  }
}

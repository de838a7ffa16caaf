import { LazyWorker, siblingModule } from '../../../worker-entry.js';
import { analyzeGraph, type AnalysisRequest, type AnalysisResult } from './analyze.js';

/**
 * Runs graph analyses. A small graph is analysed inline (a few milliseconds); from `workerMinSize` nodes + pairs on,
 * in one worker thread, so that Louvain and betweenness on a large workspace never hold the event loop. The worker
 * starts on first use and analyses run one at a time (queued), bounding the CPU a burst of requests can take.
 */
export class GraphAnalyzer {
  readonly #worker = new LazyWorker(siblingModule(import.meta.url, 'worker'));

  constructor(private readonly workerMinSize: number) {}

  async run(request: AnalysisRequest): Promise<AnalysisResult> {
    if (request.graph.order + request.graph.a.length < this.workerMinSize) return analyzeGraph(request);
    return (await this.#worker.run(request)) as AnalysisResult;
  }

  close(): Promise<void> {
    return this.#worker.close();
  }
}

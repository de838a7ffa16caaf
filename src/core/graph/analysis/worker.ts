import { analyzeGraph, type AnalysisRequest, type AnalysisResult } from './analyze.js';

/** Worker-thread side of the graph analyzer: the same pure analysis, off the event loop. */
export default function analyzeInWorker(request: AnalysisRequest): AnalysisResult {
  return analyzeGraph(request);
}

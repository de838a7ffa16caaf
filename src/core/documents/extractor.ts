import { LazyWorker, siblingModule } from '../../worker-entry.js';
import { IngestionProblem, type ExtractRequest, type Extraction } from './extract.js';
import type { WorkerAnswer } from './extract-worker.js';

/**
 * Runs text extraction in one worker thread, one document at a time: parsing a large PDF or Word file is CPU work
 * that must not hold the event loop, and a file that makes a parser spin is stopped at the deadline (the thread is
 * terminated and the job fails with `extraction_timeout`). The worker starts on first use and stops when idle.
 */
export class DocumentExtractor {
  readonly #worker = new LazyWorker(siblingModule(import.meta.url, 'extract-worker'));

  constructor(private readonly timeoutMs: number) {}

  async extract(request: ExtractRequest): Promise<Extraction> {
    const deadline = AbortSignal.timeout(this.timeoutMs);
    let answer: WorkerAnswer;
    try {
      answer = (await this.#worker.run(request, { signal: deadline })) as WorkerAnswer;
    } catch (error) {
      if (deadline.aborted) throw new IngestionProblem('extraction_timeout', `text extraction took longer than ${this.timeoutMs} ms (MEMD_DOCUMENT_EXTRACT_TIMEOUT_MS)`);
      throw error;
    }
    if (!answer.ok) throw new IngestionProblem(answer.code, answer.message);
    return answer.extraction;
  }

  close(): Promise<void> {
    return this.#worker.close();
  }
}

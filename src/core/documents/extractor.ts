import { LazyWorker, siblingModule } from '../../worker-entry.js';
import { IngestionProblem, type ExtractRequest, type Extraction } from './extract.js';
import type { WorkerAnswer, WorkerTask } from './extract-worker.js';

export interface ExtractorLimits {
  /** Deadline of one document's extraction. */
  timeoutMs: number;
  /** Heap of the extraction thread, in MiB. */
  memoryMb: number;
  /** Most bytes a Word document (a zip archive) may decompress to. */
  maxExpandedBytes: number;
}

/**
 * Runs text extraction in one worker thread, one document at a time: parsing a large PDF or Word file is CPU work
 * that must not hold the event loop. A file that makes a parser spin is stopped at the deadline and one that makes
 * it grow is stopped at the thread's heap limit (the thread is terminated; the job fails with
 * `extraction_timeout` or `extraction_out_of_memory`). After any failure the thread is let go, so that what its heap
 * grew to returns to the system. The worker starts on first use and stops when idle.
 */
export class DocumentExtractor {
  readonly #worker: LazyWorker;

  constructor(private readonly limits: ExtractorLimits) {
    this.#worker = new LazyWorker(siblingModule(import.meta.url, 'extract-worker'), {
      resourceLimits: { maxOldGenerationSizeMb: limits.memoryMb },
    });
  }

  async extract(request: ExtractRequest): Promise<Extraction> {
    const { timeoutMs, memoryMb, maxExpandedBytes } = this.limits;
    const deadline = AbortSignal.timeout(timeoutMs);
    const task: WorkerTask = { request, limits: { maxExpandedBytes } };
    let answer: WorkerAnswer;
    try {
      answer = (await this.#worker.run(task, { signal: deadline })) as WorkerAnswer;
    } catch (error) {
      this.#worker.discard();
      if (deadline.aborted)
        throw new IngestionProblem(
          'extraction_timeout',
          `text extraction took longer than ${timeoutMs} ms (MEMD_DOCUMENT_EXTRACT_TIMEOUT_MS)`,
        );
      if ((error as { code?: unknown }).code === 'ERR_WORKER_OUT_OF_MEMORY') {
        throw new IngestionProblem(
          'extraction_out_of_memory',
          `text extraction needed more than ${memoryMb} MiB (MEMD_DOCUMENT_EXTRACT_MEMORY_MB)`,
        );
      }
      throw error;
    }
    if (!answer.ok) {
      this.#worker.discard();
      throw new IngestionProblem(answer.code, answer.message);
    }
    return answer.extraction;
  }

  close(): Promise<void> {
    return this.#worker.close();
  }
}

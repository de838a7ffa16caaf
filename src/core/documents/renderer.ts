import { LazyWorker, siblingModule } from '../../worker-entry.js';
import type { RenderedPage, RenderRequest } from './render-worker.js';

/**
 * Draws PDF pages as images for OCR in a worker thread of its own (drawing is CPU work, and a page that makes
 * pdf.js spin is stopped at the deadline: the thread is terminated). The thread starts on first use and stops
 * when idle, so a server that never sees a scanned PDF never loads a canvas.
 */
export class PageRenderer {
  readonly #worker = new LazyWorker(siblingModule(import.meta.url, 'render-worker'));

  /** The page as a PNG image, or why it could not be drawn (in time). */
  async render(request: RenderRequest, timeoutMs: number): Promise<RenderedPage> {
    const deadline = AbortSignal.timeout(timeoutMs);
    try {
      return (await this.#worker.run(request, { signal: deadline })) as RenderedPage;
    } catch (error) {
      const message = deadline.aborted ? `drawing page ${request.pageNo} took longer than ${timeoutMs} ms (MEMD_OCR_TIMEOUT_MS)` : `page ${request.pageNo} could not be drawn: ${(error as Error).message}`;
      return { ok: false, message };
    }
  }

  close(): Promise<void> {
    return this.#worker.close();
  }
}

import { LazyWorker, siblingModule } from '../../worker-entry.js';
import { OVER_BUDGET, type RenderedPage, type RenderRequest } from './render-worker.js';

export interface RendererLimits {
  /** Heap of the render thread, and what its heap and buffers may hold while it draws a page, in MiB. */
  memoryMb: number;
}

/**
 * Draws PDF pages as images for OCR in a worker thread of its own (drawing is CPU work, and a page that makes
 * pdf.js spin is stopped at the deadline: the thread is terminated). A page that needs more memory than the
 * thread may hold is stopped (render-worker.ts says how). After any failure the thread is let go, so that what it
 * grew to returns to the system. The thread starts on first use and stops when idle, so a server that never sees
 * a scanned PDF never loads a canvas.
 */
export class PageRenderer {
  readonly #worker: LazyWorker;

  constructor(private readonly limits: RendererLimits) {
    this.#worker = new LazyWorker(siblingModule(import.meta.url, 'render-worker'), {
      resourceLimits: { maxOldGenerationSizeMb: limits.memoryMb },
    });
  }

  /** The page as a PNG image, or why it could not be drawn (in time, in memory). */
  async render(request: Omit<RenderRequest, 'memoryBytes' | 'verdict'>, timeoutMs: number): Promise<RenderedPage> {
    const { memoryMb } = this.limits;
    const deadline = AbortSignal.timeout(timeoutMs);
    // Shared with the thread, which writes OVER_BUDGET in it before it ends itself for want of memory.
    const verdict = new Int32Array(new SharedArrayBuffer(4));
    let drawn: RenderedPage;
    try {
      drawn = (await this.#worker.run(
        { ...request, memoryBytes: memoryMb * 1024 * 1024, verdict } satisfies RenderRequest,
        { signal: deadline },
      )) as RenderedPage;
    } catch (error) {
      if (
        Atomics.load(verdict, 0) === OVER_BUDGET ||
        (error as { code?: unknown }).code === 'ERR_WORKER_OUT_OF_MEMORY'
      ) {
        drawn = {
          ok: false,
          code: 'render_out_of_memory',
          message: `drawing page ${request.pageNo} needed more than ${memoryMb} MiB (MEMD_DOCUMENT_RENDER_MEMORY_MB)`,
        };
      } else if (deadline.aborted)
        drawn = {
          ok: false,
          code: 'render_timeout',
          message: `drawing page ${request.pageNo} took longer than ${timeoutMs} ms (MEMD_OCR_TIMEOUT_MS)`,
        };
      else
        drawn = {
          ok: false,
          code: 'render_failed',
          message: `page ${request.pageNo} could not be drawn: ${(error as Error).message}`,
        };
    }
    if (!drawn.ok) this.#worker.discard();
    return drawn;
  }

  close(): Promise<void> {
    return this.#worker.close();
  }
}

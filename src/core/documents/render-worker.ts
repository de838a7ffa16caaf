import { getHeapStatistics } from 'node:v8';

export interface RenderRequest {
  bytes: Uint8Array;
  /** 1-based. */
  pageNo: number;
  /** Largest image, in pixels: pages are rendered at 300 dpi or less, so that each fits, and larger images are refused. */
  maxPixels: number;
  /** What the thread's heap and buffers may hold while it draws the page, in bytes. */
  memoryBytes: number;
  /** Set to OVER_BUDGET (Atomics) by the thread just before it ends itself for want of memory. */
  verdict: Int32Array;
}

/** What the thread writes in `verdict` when it stops a page for taking more than `memoryBytes`. */
export const OVER_BUDGET = 1;

/** Why a page could not be drawn; listed in the job's `page_errors`. */
export type RenderProblemCode = 'render_failed' | 'render_timeout' | 'render_out_of_memory' | 'image_too_large';

export type RenderedPage = { ok: true; image: Uint8Array } | { ok: false; code: RenderProblemCode; message: string };

/** OCR reads printed text best at about 300 dpi; PDF user space is 72 units per inch. */
const TARGET_SCALE = 300 / 72;
/** How often the thread's memory is looked at while a page is drawn (besides each message inside pdf.js). */
const WATCH_MS = 10;
/** pdf.js's warning (at verbosity 1) when it leaves out an image larger than `maxImageSize` instead of decoding it. */
const IMAGE_REMOVED = /Image exceeded maximum allowed size/;

/** The scale at which a page of `width` × `height` units renders at 300 dpi, or smaller when that exceeds `maxPixels`. */
export function renderScale(width: number, height: number, maxPixels: number): number {
  return Math.min(TARGET_SCALE, Math.sqrt(maxPixels / Math.max(1, width * height)));
}

/** This thread's V8 heap plus the buffers it holds (pdf.js's decoded images are typed arrays, outside the heap). */
function memoryHeld(): number {
  const { used_heap_size, external_memory } = getHeapStatistics();
  return used_heap_size + external_memory;
}

/** The page being drawn: its memory bound and where to say that the thread ended itself for it. */
let drawing: Pick<RenderRequest, 'memoryBytes' | 'verdict'> | null = null;

/**
 * Ends the thread at once (its memory goes back to the system) when the page being drawn holds more than its bound;
 * `verdict` tells the caller why the thread went away.
 */
function checkMemory(): void {
  if (!drawing || memoryHeld() <= drawing.memoryBytes) return;
  Atomics.store(drawing.verdict, 0, OVER_BUDGET);
  process.exit(1);
}

let messagesWatched = false;

/**
 * pdf.js's two halves (parsing and drawing) talk through a port that settles each message in a microtask and clones
 * it with the global structuredClone: decoding a page's images can run for seconds without a timer firing, but never
 * without a message (each decoded image is one). So memory is looked at on every message as well as on a timer.
 * Installed by the first page drawn, so that importing this module (for its types and constants) changes nothing
 * outside the render thread.
 */
function watchMessages(): void {
  if (messagesWatched) return;
  messagesWatched = true;
  const clone = globalThis.structuredClone;
  globalThis.structuredClone = ((value: unknown, options?: Parameters<typeof structuredClone>[1]) => {
    checkMemory();
    return clone(value, options);
  }) as typeof structuredClone;
}

/**
 * Worker-thread side of page rendering: a PDF page without a text layer becomes a PNG image for OCR (pdf.js through
 * unpdf, drawn on @napi-rs/canvas, on white). One page per call: the deadline of a call is the page's, and pdf.js
 * reads only the parts of the file that page needs. A page that cannot be drawn comes back with the reason.
 *
 * Memory is bounded three ways, because the thread's V8 heap limit alone does not see most of it: the canvas is at
 * most `maxPixels` (the scale); an image of more than `maxPixels` is never decoded (pdf.js's `maxImageSize`) and
 * fails the page with `image_too_large`; and the heap plus the buffers of decoded images, which grow with each image
 * a page draws, are checked while pdf.js works: beyond `memoryBytes` the thread ends itself (`render_out_of_memory`
 * on the caller's side). Skia's own pixel memory is native and seen by neither check; BENCHMARKS.md has the process's
 * peak for a page stopped at the bound.
 */
export default async function renderPage({
  bytes,
  pageNo,
  maxPixels,
  memoryBytes,
  verdict,
}: RenderRequest): Promise<RenderedPage> {
  const { createIsomorphicCanvasFactory, getDocumentProxy, renderPageAsImage } = await import('unpdf');
  const canvasImport = () => import('@napi-rs/canvas');
  // pdf.js says it left an image out only as a warning: this thread does nothing else, so its console is ours to read.
  let imageRemoved = false;
  const warn = console.warn;
  console.warn = (...args: unknown[]) => {
    imageRemoved ||= IMAGE_REMOVED.test(args.join(' '));
  };
  watchMessages();
  drawing = { memoryBytes, verdict };
  const watch = setInterval(checkMemory, WATCH_MS);
  try {
    const CanvasFactory = await createIsomorphicCanvasFactory(canvasImport);
    // The task's bytes are this thread's own copy (cloned on the way in): pdf.js may take them over.
    const pdf = await getDocumentProxy(bytes, { verbosity: 1, CanvasFactory, maxImageSize: maxPixels });
    try {
      const { width, height } = (await pdf.getPage(pageNo)).getViewport({ scale: 1 });
      const image = await renderPageAsImage(pdf, pageNo, {
        canvasImport,
        scale: renderScale(width, height, maxPixels),
      });
      if (imageRemoved)
        return {
          ok: false,
          code: 'image_too_large',
          message: `page ${pageNo} draws an image of more than MEMD_OCR_MAX_PIXELS (${maxPixels}) pixels`,
        };
      return { ok: true, image: new Uint8Array(image) };
    } finally {
      await pdf.loadingTask.destroy();
    }
  } catch (error) {
    return {
      ok: false,
      code: 'render_failed',
      message: `page ${pageNo} could not be drawn: ${(error as Error).message}`,
    };
  } finally {
    drawing = null;
    clearInterval(watch);
    console.warn = warn;
  }
}

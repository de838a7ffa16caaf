export interface RenderRequest {
  bytes: Uint8Array;
  /** 1-based. */
  pageNo: number;
  /** Largest image, in pixels: pages are rendered at 300 dpi or less, so that each fits. */
  maxPixels: number;
}

export type RenderedPage = { ok: true; image: Uint8Array } | { ok: false; message: string };

/** OCR reads printed text best at about 300 dpi; PDF user space is 72 units per inch. */
const TARGET_SCALE = 300 / 72;

/** The scale at which a page of `width` × `height` units renders at 300 dpi, or smaller when that exceeds `maxPixels`. */
export function renderScale(width: number, height: number, maxPixels: number): number {
  return Math.min(TARGET_SCALE, Math.sqrt(maxPixels / Math.max(1, width * height)));
}

/**
 * Worker-thread side of page rendering: a PDF page without a text layer becomes a PNG image for OCR (pdf.js through
 * unpdf, drawn on @napi-rs/canvas, on white). One page per call: the deadline of a call is the page's, and pdf.js
 * reads only the parts of the file that page needs. A page that cannot be drawn comes back with the reason.
 */
export default async function renderPage({ bytes, pageNo, maxPixels }: RenderRequest): Promise<RenderedPage> {
  const { createIsomorphicCanvasFactory, getDocumentProxy, renderPageAsImage } = await import('unpdf');
  const canvasImport = () => import('@napi-rs/canvas');
  try {
    const CanvasFactory = await createIsomorphicCanvasFactory(canvasImport);
    const pdf = await getDocumentProxy(new Uint8Array(bytes), { verbosity: 0, CanvasFactory });
    try {
      const { width, height } = (await pdf.getPage(pageNo)).getViewport({ scale: 1 });
      const image = await renderPageAsImage(pdf, pageNo, { canvasImport, scale: renderScale(width, height, maxPixels) });
      return { ok: true, image: new Uint8Array(image) };
    } finally {
      await pdf.loadingTask.destroy();
    }
  } catch (error) {
    return { ok: false, message: `page ${pageNo} could not be drawn: ${(error as Error).message}` };
  }
}

import { baseUrl, ConfigError, integer, oneOf, readSettings, text, type Env } from '../setting.js';

/**
 * Reading text from images (image uploads, PDF pages without a text layer): `local` runs tesseract.js in this
 * process's worker threads, `peer` sends each image to an embedding peer's `POST /v1/ocr`, `off` reads no images.
 */
export interface OcrConfig {
  provider: 'local' | 'peer' | 'off';
  /** The peer's base URL, ending before /ocr (e.g. http://127.0.0.1:61051/v1). */
  baseUrl: string | undefined;
  apiKey: string | undefined;
  /** Deadline of one page: rendering (a PDF page) and recognition. */
  timeoutMs: number;
  /** Largest image read, in pixels (width × height): what bounds the memory one page takes. */
  maxPixels: number;
  /**
   * `local`: recognition threads. Each holds the model (about 60 MiB) and, until it stops after a minute idle, the
   * memory its largest page took: about 220 MiB after an A4 page at 300 dpi, 480 MiB at `maxPixels` (BENCHMARKS.md).
   */
  workers: number;
}

export const OCR_PROVIDER = oneOf({
  name: 'MEMD_OCR_PROVIDER',
  values: ['local', 'peer', 'off'] as const,
  default: 'local',
  meaning:
    "OCR of image uploads (PNG, JPEG, TIFF — each image of a multi-page TIFF a page —, WebP) and of PDF pages without a text layer: `local` (tesseract.js with its English model from `node_modules`, in worker threads of this process, loaded on the first image), `peer` (the embedding peer's `POST /v1/ocr` at `MEMD_OCR_BASE_URL`), `off` (image uploads answer 501)",
});

/** How images are read (memd's, and the peer's own OCR). */
export const OCR = {
  baseUrl: baseUrl({
    name: 'MEMD_OCR_BASE_URL',
    meaning: 'with `peer`, required: the peer, ending before `/ocr` (e.g. `http://127.0.0.1:61051/v1`)',
  }),
  apiKey: text({ name: 'MEMD_OCR_API_KEY', accepts: 'secret', meaning: "with `peer`: the peer's `MEMD_PEER_API_KEY`" }),
  timeoutMs: integer({
    name: 'MEMD_OCR_TIMEOUT_MS',
    default: 120_000,
    min: 1_000,
    max: 3_600_000,
    meaning: "deadline of drawing and reading one page (past it the page is listed in the job's `page_errors`)",
  }),
  maxPixels: integer({
    name: 'MEMD_OCR_MAX_PIXELS',
    default: 25_000_000,
    min: 10_000,
    max: 400_000_000,
    meaning:
      'largest image read, in pixels, from its header before decoding (larger: `image_too_large`; PDF pages are drawn at 300 dpi or less to fit)',
  }),
  workers: integer({
    name: 'MEMD_OCR_WORKERS',
    default: 1,
    min: 1,
    max: 16,
    meaning:
      '`local`: recognition threads (each about 60 MiB with the model, up to 220 MiB after an A4 page at 300 dpi and 480 MiB after one of 25 M pixels, held until it stops after a minute idle: BENCHMARKS.md, "OCR and page drawing memory")',
  }),
};

/** OCR settings; `provider` is MEMD_OCR_PROVIDER for memd and MEMD_PEER_OCR for the peer (which serves `local` or nothing). */
export function ocrConfig(env: Env, provider: OcrConfig['provider']): OcrConfig {
  const ocr = readSettings(OCR, env);
  if (provider === 'peer' && !ocr.baseUrl)
    throw new ConfigError('MEMD_OCR_PROVIDER=peer needs MEMD_OCR_BASE_URL (the peer, e.g. http://127.0.0.1:61051/v1)');
  return { provider, ...ocr };
}

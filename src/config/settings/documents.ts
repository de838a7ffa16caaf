import { integer, type SettingValues } from '../setting.js';

/** Document uploads and their text extraction. */
export const DOCUMENTS = {
  maxBytes: integer({
    name: 'MEMD_DOCUMENT_MAX_BYTES',
    default: 50 * 1024 ** 2,
    min: 1,
    max: 1024 ** 3,
    meaning: 'largest document upload (413 beyond)',
  }),
  extractTimeoutMs: integer({
    name: 'MEMD_DOCUMENT_EXTRACT_TIMEOUT_MS',
    default: 300_000,
    min: 100,
    max: 3_600_000,
    meaning: 'deadline of text extraction for one document (its job fails with `extraction_timeout`)',
  }),
  extractMemoryMb: integer({
    name: 'MEMD_DOCUMENT_EXTRACT_MEMORY_MB',
    default: 1024,
    min: 32,
    max: 16_384,
    meaning: 'heap of the extraction thread, in MiB (a document that needs more fails with `extraction_out_of_memory`)',
  }),
  maxExpandedBytes: integer({
    name: 'MEMD_DOCUMENT_MAX_EXPANDED_BYTES',
    default: 256 * 1024 ** 2,
    min: 1024,
    max: 16 * 1024 ** 3,
    meaning:
      'most bytes a Word document (a zip) may decompress to, as declared and as inflated (beyond: `document_too_large`, checked before the parser sees it)',
  }),
  renderMemoryMb: integer({
    name: 'MEMD_DOCUMENT_RENDER_MEMORY_MB',
    default: 512,
    min: 64,
    max: 16_384,
    meaning:
      "what the thread that draws a scanned PDF page for OCR may hold, its heap and the buffers of the images it decodes, in MiB (a page of 25 M pixels needs 128-256); a page that needs more is listed in the job's `page_errors` as `render_out_of_memory` and the thread is ended (the process peaked at +638 MiB for a page stopped at 512: Skia's canvas memory is outside the count)",
  }),
};

export type DocumentsConfig = SettingValues<typeof DOCUMENTS>;

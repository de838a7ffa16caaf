import type { DocumentPage, JsonObject } from '../../storage/types.js';
import { packText } from './chunking.js';

/** How a document is cut: pages for formats without their own, chunks (one memory each) within a page. */
export interface ExtractionOptions {
  /** Largest chunk in characters; a chunk never spans two pages, so each memory cites one page. */
  chunk_size: number;
  /** Largest page in characters, for text, Markdown, HTML and Word (PDF pages are the PDF's). */
  page_size: number;
}

/** About a paragraph or two per memory, and about a printed page per page. */
export const DEFAULT_EXTRACTION_OPTIONS: ExtractionOptions = { chunk_size: 1_000, page_size: 3_000 };

/** Later layers override earlier ones; unset fields keep the defaults. */
export function resolveOptions(
  ...layers: ReadonlyArray<Partial<ExtractionOptions> | JsonObject | undefined>
): ExtractionOptions {
  const options = { ...DEFAULT_EXTRACTION_OPTIONS };
  for (const layer of layers) {
    for (const key of Object.keys(DEFAULT_EXTRACTION_OPTIONS) as Array<keyof ExtractionOptions>) {
      const value = layer?.[key];
      if (typeof value === 'number') options[key] = value;
    }
  }
  return options;
}

export interface Chunk {
  page_no: number;
  /** Position in the whole document, from 0. */
  index: number;
  text: string;
}

/** The chunks of the document's pages, in order: the same pages and size always give the same chunks. */
export function chunksOf(pages: readonly Pick<DocumentPage, 'page_no' | 'transcript'>[], chunkSize: number): Chunk[] {
  let index = 0;
  return pages.flatMap((page) =>
    packText(page.transcript, chunkSize).map((text) => ({ page_no: page.page_no, index: index++, text })),
  );
}

import type { DocumentType } from '../../storage/types.js';
import { assertExpandsWithin } from './archive.js';
import { packText } from './chunking.js';
import { htmlToText } from './html.js';

/** Why a document could not be ingested; the job reports the code and the message. */
export type ProblemCode =
  | 'empty_document'
  | 'corrupt_document'
  | 'encrypted_document'
  | 'no_text'
  | 'document_too_large'
  | 'extraction_timeout'
  | 'extraction_out_of_memory'
  | 'original_missing'
  | 'ingestion_failed'
  | 'image_too_large'
  | 'ocr_timeout'
  | 'ocr_failed'
  | 'ocr_unavailable'
  | 'transcription_failed'
  | 'transcription_unavailable';

export class IngestionProblem extends Error {
  constructor(
    readonly code: ProblemCode,
    message: string,
  ) {
    super(message);
    this.name = 'IngestionProblem';
  }
}

export interface ExtractRequest {
  bytes: Uint8Array;
  type: DocumentType;
  /** Largest page, in characters, for formats without pages of their own. */
  pageSize: number;
}

/** What one document's extraction may take. */
export interface ExtractLimits {
  /** Most bytes an archive (a Word document) may decompress to. */
  maxExpandedBytes: number;
}

export interface Extraction {
  /** Names the extractor; recorded as each page's `transcript_model`. */
  extractor: string;
  /** Page transcripts in order (a page may be empty: a scanned page has no text layer). */
  pages: string[];
}

/** Bytes → text: UTF-8 (BOM dropped), else Windows-1252; NUL bytes mean the file is not text at all. */
function decodeText(bytes: Uint8Array): string {
  if (bytes.includes(0))
    throw new IngestionProblem(
      'corrupt_document',
      'the file holds binary data, not text (UTF-16 is not supported; save it as UTF-8)',
    );
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return new TextDecoder('windows-1252').decode(bytes);
  }
}

/** Text without pages of its own: a form feed starts a page, and pages hold at most `pageSize` characters. */
export const paginate = (text: string, pageSize: number): string[] =>
  text
    .replace(/\r\n?/g, '\n')
    .split('\f')
    .flatMap((part) => packText(part, pageSize));

async function pdfPages(bytes: Uint8Array): Promise<string[]> {
  // Loaded on first use: only the extraction worker pays for pdf.js.
  const { extractText, getDocumentProxy } = await import('unpdf');
  try {
    // No console noise (pdf.js no longer evaluates code from fonts); pdf.js may take the buffer over, so it gets a copy.
    const pdf = await getDocumentProxy(new Uint8Array(bytes), { verbosity: 0 });
    return (await extractText(pdf, { mergePages: false })).text.map((page) => page.trim());
  } catch (error) {
    const name = (error as { name?: unknown } | null)?.name;
    if (name === 'PasswordException') throw new IngestionProblem('encrypted_document', 'the PDF is password-protected');
    throw new IngestionProblem('corrupt_document', `not a readable PDF: ${(error as Error).message}`);
  }
}

async function docxText(bytes: Uint8Array, maxExpandedBytes: number): Promise<string> {
  await assertExpandsWithin(bytes, maxExpandedBytes);
  const { default: mammoth } = await import('mammoth');
  try {
    return (await mammoth.extractRawText({ buffer: Buffer.from(bytes) })).value;
  } catch (error) {
    throw new IngestionProblem('corrupt_document', `not a readable Word document: ${(error as Error).message}`);
  }
}

async function pagesOf(
  { bytes, type, pageSize }: ExtractRequest,
  { maxExpandedBytes }: ExtractLimits,
): Promise<Extraction> {
  switch (type) {
    case 'pdf':
      return { extractor: 'unpdf', pages: await pdfPages(bytes) };
    case 'docx':
      return { extractor: 'mammoth', pages: paginate(await docxText(bytes, maxExpandedBytes), pageSize) };
    case 'html':
      return { extractor: 'html-text', pages: paginate(htmlToText(decodeText(bytes)), pageSize) };
    case 'markdown':
      return { extractor: 'markdown', pages: paginate(decodeText(bytes), pageSize) };
    case 'text':
      return { extractor: 'plain-text', pages: paginate(decodeText(bytes), pageSize) };
    case 'image':
    case 'audio':
      throw new Error(`${type} files are read by OCR or transcription (DocumentReader), not by text extraction`);
  }
}

/**
 * The page transcripts of a document. PDF pages are the PDF's pages (unpdf); the other formats are cut into pages of
 * `pageSize` characters at paragraph boundaries (Word through mammoth's raw text, HTML through `htmlToText`).
 * Throws an IngestionProblem for an empty, unreadable or too large (decompressed) file; a page may be blank (whether
 * the document has any text at all is the DocumentReader's question, after OCR).
 */
export async function extractPages(request: ExtractRequest, limits: ExtractLimits): Promise<Extraction> {
  if (request.bytes.length === 0) throw new IngestionProblem('empty_document', 'the file is empty');
  return pagesOf(request, limits);
}

import { AppError } from '../../errors.js';
import { OcrProblem, type OcrProvider } from '../../providers/ocr/index.js';
import { TranscriptionProblem, type OpenAiTranscriber } from '../../providers/transcription/openai.js';
import type { DocumentType, PageError } from '../../storage/types.js';
import { IngestionProblem, paginate, type ProblemCode } from './extract.js';
import type { DocumentExtractor } from './extractor.js';
import type { PageRenderer } from './renderer.js';
import { tiffPages } from './tiff.js';

export interface ReadPage {
  transcript: string;
  /** The extractor or model that produced it. */
  transcript_model: string;
  /** OCR's confidence, 0..1; null for text that was not recognised. */
  transcript_confidence: number | null;
}

export interface Reading {
  pages: ReadPage[];
  /** Pages that could not be read; the others are kept. */
  problems: PageError[];
}

export interface ReadSource {
  document_type: DocumentType;
  filename: string;
  mime_type: string;
}

export interface DocumentReaderDeps {
  extractor: DocumentExtractor;
  renderer: PageRenderer;
  /** Null when OCR is off. */
  ocr: OcrProvider | null;
  /** Null when no transcription endpoint is configured. */
  transcriber: OpenAiTranscriber | null;
  ocrLimits: { timeoutMs: number; maxPixels: number };
}

const OCR_OFF =
  'OCR is off on this server (MEMD_OCR_PROVIDER=off); MEMD_OCR_PROVIDER=local reads images in-process, or peer with MEMD_OCR_BASE_URL';
const TRANSCRIPTION_OFF =
  'audio transcription is not configured on this server; set MEMD_TRANSCRIPTION_BASE_URL to an OpenAI-compatible endpoint that serves /audio/transcriptions (e.g. https://api.openai.com/v1, a whisper server, or an embedding peer forwarding to one) and MEMD_TRANSCRIPTION_MODEL';

/** An OCR failure as a job reports it: an unreadable image is a corrupt document, the rest keep their code. */
const problemCode = (problem: OcrProblem): ProblemCode =>
  problem.code === 'invalid_image' ? 'corrupt_document' : problem.code;

/**
 * Turns a stored document into page transcripts, whatever it is: text formats and PDF text layers through the
 * extraction worker; PDF pages without a text layer drawn as images and read by OCR; images read by OCR (one page,
 * or one per image of a multi-page TIFF);
 * audio transcribed and cut into pages like text. A scanned page that cannot be read is reported with its reason
 * and the others are kept; a document with no text at all fails with `no_text`, saying why.
 */
export class DocumentReader {
  constructor(private readonly deps: DocumentReaderDeps) {}

  /** At upload: a type this server is not set up to read is refused (501, saying how to turn it on). */
  assertReadable(type: DocumentType): void {
    if (type === 'image' && !this.deps.ocr) throw new AppError('not_implemented', `images are read by OCR: ${OCR_OFF}`);
    if (type === 'audio' && !this.deps.transcriber) throw new AppError('not_implemented', TRANSCRIPTION_OFF);
  }

  /** The document's pages; null when `stopped` says the job was cancelled on the way (checked before each OCR page). */
  async read(
    source: ReadSource,
    bytes: Uint8Array,
    pageSize: number,
    stopped: () => Promise<boolean>,
  ): Promise<Reading | null> {
    if (bytes.length === 0) throw new IngestionProblem('empty_document', 'the file is empty');
    const reading = await this.pagesOf(source, bytes, pageSize, stopped);
    if (reading?.pages.every((page) => page.transcript.trim() === ''))
      throw new IngestionProblem('no_text', this.whyNoText(source.document_type, reading.problems));
    return reading;
  }

  private async pagesOf(
    source: ReadSource,
    bytes: Uint8Array,
    pageSize: number,
    stopped: () => Promise<boolean>,
  ): Promise<Reading | null> {
    switch (source.document_type) {
      case 'image':
        return this.readImageUpload(bytes, stopped);
      case 'audio':
        return { pages: await this.transcribe(source, bytes, pageSize), problems: [] };
      default: {
        const extraction = await this.deps.extractor.extract({ bytes, type: source.document_type, pageSize });
        const pages = extraction.pages.map(
          (transcript): ReadPage => ({
            transcript,
            transcript_model: extraction.extractor,
            transcript_confidence: null,
          }),
        );
        if (source.document_type !== 'pdf' || !this.deps.ocr) return { pages, problems: [] };
        return this.readScannedPages(bytes, pages, stopped);
      }
    }
  }

  /**
   * An image upload is one page, and if OCR cannot read it the job fails with the reason. A multi-page TIFF (a
   * scanner's or a fax's) is a page per image, read like a scanned PDF: a page that fails is listed, the others kept.
   */
  private async readImageUpload(bytes: Uint8Array, stopped: () => Promise<boolean>): Promise<Reading | null> {
    const tiff = tiffPages(bytes);
    if (tiff.length <= 1) return { pages: [await this.readImage(bytes)], problems: [] };
    const ocr = this.ocrOrRefuse();
    const blank: ReadPage[] = tiff.map(() => ({
      transcript: '',
      transcript_model: ocr.model,
      transcript_confidence: null,
    }));
    return this.readPagesByOcr(blank, async (pageNo) => tiff[pageNo - 1]!(), stopped);
  }

  private async readImage(bytes: Uint8Array): Promise<ReadPage> {
    const ocr = this.ocrOrRefuse();
    try {
      const result = await ocr.recognize(bytes);
      return { transcript: result.text, transcript_model: result.model, transcript_confidence: result.confidence };
    } catch (error) {
      if (error instanceof OcrProblem) throw new IngestionProblem(problemCode(error), error.message);
      throw error;
    }
  }

  /** PDF pages without a text layer are drawn (at most MEMD_OCR_MAX_PIXELS) and read by OCR, one at a time. */
  private readScannedPages(
    pdf: Uint8Array,
    pages: ReadPage[],
    stopped: () => Promise<boolean>,
  ): Promise<Reading | null> {
    const { timeoutMs, maxPixels } = this.deps.ocrLimits;
    return this.readPagesByOcr(
      pages,
      async (pageNo) => {
        const drawn = await this.deps.renderer.render({ bytes: pdf, pageNo, maxPixels }, timeoutMs);
        return drawn.ok ? drawn.image : { page_no: pageNo, code: drawn.code, message: drawn.message };
      },
      stopped,
    );
  }

  /**
   * Reads the pages that have no text yet by OCR, one at a time, a cancel seen before each: `imageOf` gives a page's
   * image, or why it has none. A page that cannot be read stays blank and is listed with its reason.
   */
  private async readPagesByOcr(
    pages: readonly ReadPage[],
    imageOf: (pageNo: number) => Promise<Uint8Array | PageError>,
    stopped: () => Promise<boolean>,
  ): Promise<Reading | null> {
    const ocr = this.ocrOrRefuse();
    const problems: PageError[] = [];
    const read = [...pages];
    for (let pageNo = 1; pageNo <= pages.length; pageNo++) {
      if (pages[pageNo - 1]!.transcript.trim() !== '') continue;
      if (await stopped()) return null;
      const image = await imageOf(pageNo);
      if (!(image instanceof Uint8Array)) {
        problems.push(image);
        continue;
      }
      try {
        const result = await ocr.recognize(image);
        read[pageNo - 1] = {
          transcript: result.text,
          transcript_model: result.model,
          transcript_confidence: result.confidence,
        };
      } catch (error) {
        if (!(error instanceof OcrProblem)) throw error;
        problems.push({ page_no: pageNo, code: problemCode(error), message: error.message });
      }
    }
    return { pages: read, problems };
  }

  private ocrOrRefuse(): OcrProvider {
    if (!this.deps.ocr) throw new IngestionProblem('ocr_unavailable', OCR_OFF);
    return this.deps.ocr;
  }

  private async transcribe(source: ReadSource, bytes: Uint8Array, pageSize: number): Promise<ReadPage[]> {
    if (!this.deps.transcriber) throw new IngestionProblem('transcription_unavailable', TRANSCRIPTION_OFF);
    try {
      const { text, model } = await this.deps.transcriber.transcribe(bytes, source.filename, source.mime_type);
      return paginate(text, pageSize).map((transcript) => ({
        transcript,
        transcript_model: model,
        transcript_confidence: null,
      }));
    } catch (error) {
      if (error instanceof TranscriptionProblem) throw new IngestionProblem('transcription_failed', error.message);
      throw error;
    }
  }

  private whyNoText(type: DocumentType, problems: readonly PageError[]): string {
    if (problems.length > 0)
      return `no page has text; ${problems.map((p) => `page ${p.page_no}: ${p.message}`).join('; ')}`;
    switch (type) {
      case 'pdf':
        return this.deps.ocr
          ? 'the PDF has no text layer and OCR found no text on its pages'
          : `the PDF has no text layer (scanned pages need OCR: ${OCR_OFF})`;
      case 'image':
        return 'OCR found no text in the image';
      case 'audio':
        return 'the transcription is empty (no speech found)';
      default:
        return 'the file contains no text';
    }
  }
}

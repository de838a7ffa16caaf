/** A rectangle in image pixels: left, top, right, bottom. */
export interface OcrBox {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

export interface OcrWord {
  text: string;
  /** 0..1. */
  confidence: number;
  bbox: OcrBox;
}

export interface OcrLine {
  text: string;
  /** 0..1. */
  confidence: number;
  bbox: OcrBox;
  words: OcrWord[];
}

/** What one image reads as: its text, line by line with words, and how sure the model is. */
export interface OcrResult {
  text: string;
  /** Mean confidence of the page's words, 0..1 (0 when nothing was read). */
  confidence: number;
  /** The model that read it; recorded as the page's `transcript_model`. */
  model: string;
  width: number;
  height: number;
  lines: OcrLine[];
}

/** Why an image could not be read. The codes are shared by memd's jobs and the peer's error bodies. */
export type OcrProblemCode = 'invalid_image' | 'image_too_large' | 'ocr_timeout' | 'ocr_failed';

export class OcrProblem extends Error {
  constructor(
    readonly code: OcrProblemCode,
    message: string,
  ) {
    super(message);
    this.name = 'OcrProblem';
  }
}

/** Reads text from an image (PNG, JPEG, TIFF, WebP, BMP, PBM). In-process (tesseract.js) or on the peer. */
export interface OcrProvider {
  /** `local` or `peer`. */
  readonly name: string;
  /** The model, as known before the first answer (the peer's answers name theirs). */
  readonly model: string;
  /** Loads the model (local) or does nothing (peer); recognition loads it on demand anyway. */
  init(): Promise<void>;
  /** Throws an OcrProblem when the image cannot be read (not an image, too large, too slow, engine failure). */
  recognize(image: Uint8Array): Promise<OcrResult>;
  close(): Promise<void>;
}

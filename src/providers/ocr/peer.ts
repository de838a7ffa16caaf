import type { OcrConfig } from '../../config.js';
import { OcrProblem, type OcrProblemCode, type OcrProvider, type OcrResult } from './types.js';

const PROBLEM_CODES: readonly OcrProblemCode[] = ['invalid_image', 'image_too_large', 'ocr_timeout', 'ocr_failed'];

/**
 * OCR on the embedding peer (`POST <MEMD_OCR_BASE_URL>/ocr`, the image as the request body): the same tesseract.js
 * code as `local`, run by a separate process, so model memory and CPU stay off the API nodes. The peer bounds each
 * image in size and time; this side bounds the whole exchange by MEMD_OCR_TIMEOUT_MS.
 */
export class PeerOcrProvider implements OcrProvider {
  readonly name = 'peer';
  readonly model = 'peer';
  readonly #endpoint: string;

  constructor(private readonly config: Pick<OcrConfig, 'baseUrl' | 'apiKey' | 'timeoutMs'>) {
    this.#endpoint = `${config.baseUrl}/ocr`;
  }

  async init(): Promise<void> {}

  async recognize(image: Uint8Array): Promise<OcrResult> {
    const headers: Record<string, string> = { 'content-type': 'application/octet-stream', accept: 'application/json' };
    if (this.config.apiKey) headers.authorization = `Bearer ${this.config.apiKey}`;
    let response: Response;
    let body: unknown;
    try {
      response = await fetch(this.#endpoint, {
        method: 'POST',
        headers,
        body: image,
        signal: AbortSignal.timeout(this.config.timeoutMs),
      });
      body = await response.json().catch(() => null);
    } catch (error) {
      if ((error as Error).name === 'TimeoutError')
        throw new OcrProblem(
          'ocr_timeout',
          `the OCR peer did not answer within ${this.config.timeoutMs} ms (MEMD_OCR_TIMEOUT_MS)`,
        );
      const cause = (error as Error).cause as Error | undefined;
      throw new OcrProblem(
        'ocr_failed',
        `the OCR peer at ${this.#endpoint} failed: ${cause?.message ?? (error as Error).message}`,
      );
    }
    if (!response.ok) {
      const { message, code } = ((body as { error?: { message?: unknown; code?: unknown } } | null)?.error ?? {}) as {
        message?: unknown;
        code?: unknown;
      };
      const problem = PROBLEM_CODES.find((c) => c === code) ?? 'ocr_failed';
      throw new OcrProblem(
        problem,
        typeof message === 'string' ? message : `the OCR peer answered HTTP ${response.status}`,
      );
    }
    const result = body as Partial<OcrResult> | null;
    if (typeof result?.text !== 'string' || typeof result.model !== 'string')
      throw new OcrProblem('ocr_failed', `the OCR peer at ${this.#endpoint} answered without text and model`);
    return result as OcrResult;
  }

  async close(): Promise<void> {}
}

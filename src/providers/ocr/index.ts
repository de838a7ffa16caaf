import type { OcrConfig } from '../../config.js';
import { PeerOcrProvider } from './peer.js';
import { TesseractOcrProvider } from './tesseract.js';
import type { OcrProvider } from './types.js';

export { OcrProblem, type OcrProblemCode, type OcrProvider, type OcrResult } from './types.js';

/** The provider MEMD_OCR_PROVIDER names, or null when OCR is off. Cheap: nothing loads before the first image. */
export function createOcrProvider(config: OcrConfig): OcrProvider | null {
  switch (config.provider) {
    case 'local':
      return new TesseractOcrProvider(config);
    case 'peer':
      return new PeerOcrProvider(config);
    case 'off':
      return null;
  }
}

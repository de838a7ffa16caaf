import { imageSize } from 'image-size';
import { OcrProblem } from './types.js';

/** Image formats OCR reads (what the recognizer's image library decodes). */
const READABLE = new Set(['png', 'jpg', 'tiff', 'webp', 'bmp', 'pnm']);

/**
 * The size of an image from its header alone, before anything decodes it: an image of a few kilobytes can claim
 * billions of pixels (a decompression bomb), and its decoded size is what a page costs in memory. Refuses what is
 * not a readable image, or is larger than `maxPixels`.
 */
export function checkImage(bytes: Uint8Array, maxPixels: number): { width: number; height: number; type: string } {
  let size: ReturnType<typeof imageSize>;
  try {
    size = imageSize(bytes);
  } catch (error) {
    throw new OcrProblem('invalid_image', `not a readable image: ${(error as Error).message}`);
  }
  const { width, height, type = 'unknown' } = size;
  if (!READABLE.has(type))
    throw new OcrProblem('invalid_image', `${type} images are not read (PNG, JPEG, TIFF, WebP, BMP and PNM are)`);
  if (!(width > 0 && height > 0)) throw new OcrProblem('invalid_image', 'the image has no pixels');
  if (width * height > maxPixels) {
    throw new OcrProblem(
      'image_too_large',
      `the image is ${width}×${height} pixels, more than MEMD_OCR_MAX_PIXELS (${maxPixels}); scale it down`,
    );
  }
  return { width, height, type };
}

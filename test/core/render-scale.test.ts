import { describe, expect, it } from 'vitest';
import { renderScale } from '../../src/core/documents/render-worker.js';

describe('the scale a PDF page is drawn at for OCR', () => {
  it('is 300 dpi while the image fits MEMD_OCR_MAX_PIXELS, and shrinks to fit it beyond', () => {
    // US Letter (612 × 792 pt) at 300 dpi is 2550 × 3300 = 8.4 M pixels.
    expect(renderScale(612, 792, 25_000_000)).toBeCloseTo(300 / 72, 10);
    // A0 (2384 × 3370 pt) would be 139 M pixels at 300 dpi: drawn at the scale that gives 25 M.
    const a0 = renderScale(2384, 3370, 25_000_000);
    expect(a0).toBeLessThan(300 / 72);
    expect(2384 * a0 * 3370 * a0).toBeCloseTo(25_000_000, -3);
    // A degenerate page does not divide by zero.
    expect(Number.isFinite(renderScale(0, 0, 1_000))).toBe(true);
  });
});

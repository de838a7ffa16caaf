import { imageSize } from 'image-size';
import { describe, expect, it } from 'vitest';
import { tiffPages } from '../../../src/core/documents/tiff.js';
import { multiPageTiff, textImage, textTiff } from '../../support/documents.js';

describe('tiffPages', () => {
  it('gives each page of a multi-page TIFF as a TIFF whose first (and only) directory is that page', async () => {
    const file = await multiPageTiff([['one'], ['a longer second line'], ['three', 'lines', 'here']]);
    const pages = tiffPages(file);
    expect(pages).toHaveLength(3);
    const sizes = pages.map((page) => imageSize(page()));
    const expected = await Promise.all(
      [['one'], ['a longer second line'], ['three', 'lines', 'here']].map(async (lines) =>
        imageSize(await textImage(lines)),
      ),
    );
    expect(sizes.map(({ width, height }) => [width, height])).toEqual(
      expected.map(({ width, height }) => [width, height]),
    );
    // Each copy ends its chain at its page: the next-directory link of the page's IFD is zero.
    for (const page of pages) expect(tiffPages(page())).toHaveLength(1);
    // The upload itself is not changed.
    expect(tiffPages(file)).toHaveLength(3);
  });

  it('a single-page TIFF is one page; what is not a TIFF has none; a directory chain that loops or leaves the file stops', async () => {
    expect(tiffPages(await textTiff(['single']))).toHaveLength(1);
    expect(tiffPages(await textImage(['png']))).toEqual([]);
    expect(tiffPages(Buffer.from('II*\0'))).toEqual([]);

    const file = await multiPageTiff([['first'], ['second']]);
    const firstIfd = file.readUInt32LE(4);
    const firstLink = firstIfd + 2 + file.readUInt16LE(firstIfd) * 12;
    const secondIfd = file.readUInt32LE(firstLink);
    const secondLink = secondIfd + 2 + file.readUInt16LE(secondIfd) * 12;
    const looping = Buffer.from(file);
    looping.writeUInt32LE(firstIfd, secondLink);
    expect(tiffPages(looping)).toHaveLength(2);
    const outside = Buffer.from(file);
    outside.writeUInt32LE(file.length + 100, firstLink);
    expect(tiffPages(outside)).toHaveLength(1);
  });

  it('reads the directory chain of a BigTIFF (64-bit offsets) too', () => {
    // Header (II, 43, offset size 8, first IFD at 16), then two empty IFDs: entry count (8 bytes), next offset (8 bytes).
    const file = Buffer.alloc(48);
    file.write('II', 0, 'latin1');
    file.writeUInt16LE(43, 2);
    file.writeUInt16LE(8, 4);
    file.writeBigUInt64LE(16n, 8);
    file.writeBigUInt64LE(32n, 24);
    const pages = tiffPages(file);
    expect(pages).toHaveLength(2);
    const second = Buffer.from(pages[1]!());
    expect([second.readBigUInt64LE(8), second.readBigUInt64LE(40)]).toEqual([32n, 0n]);
    expect(Buffer.from(pages[0]!()).readBigUInt64LE(24)).toBe(0n);
  });
});

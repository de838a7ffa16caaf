/** How a TIFF file lays out its directories: byte order, and classic (32-bit offsets) or BigTIFF (64-bit). */
interface TiffLayout {
  littleEndian: boolean;
  big: boolean;
}

function layoutOf(bytes: Uint8Array): TiffLayout | null {
  if (bytes.length < 8) return null;
  const order = String.fromCharCode(bytes[0]!, bytes[1]!);
  if (order !== 'II' && order !== 'MM') return null;
  const littleEndian = order === 'II';
  const version = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint16(2, littleEndian);
  if (version === 42) return { littleEndian, big: false };
  if (version === 43 && bytes.length >= 16) return { littleEndian, big: true };
  return null;
}

/** An offset stored in the file (4 bytes in a classic TIFF, 8 in a BigTIFF); -1 when it cannot be a position in it. */
function offsetAt(view: DataView, at: number, { littleEndian, big }: TiffLayout): number {
  if (!big) return view.getUint32(at, littleEndian);
  const offset = view.getBigUint64(at, littleEndian);
  return offset > BigInt(Number.MAX_SAFE_INTEGER) ? -1 : Number(offset);
}

/** Where the header keeps the offset of the first directory, and how wide an offset is. */
const firstDirectoryField = ({ big }: TiffLayout) => (big ? 8 : 4);
const offsetWidth = ({ big }: TiffLayout) => (big ? 8 : 4);

/** Where each page's directory (IFD) starts, in file order; stops at the first one that lies outside the file or repeats. */
function directoryOffsets(bytes: Uint8Array, layout: TiffLayout): Array<{ start: number; next: number }> {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const countWidth = layout.big ? 8 : 2;
  const entryWidth = layout.big ? 20 : 12;
  const directories: Array<{ start: number; next: number }> = [];
  const seen = new Set<number>();
  for (let start = offsetAt(view, firstDirectoryField(layout), layout); start > 0 && !seen.has(start); ) {
    if (start + countWidth > bytes.length) break;
    seen.add(start);
    const count = layout.big
      ? Number(view.getBigUint64(start, layout.littleEndian))
      : view.getUint16(start, layout.littleEndian);
    // Where this directory keeps the offset of the next one (0 on the last page).
    const next = start + countWidth + count * entryWidth;
    if (next + offsetWidth(layout) > bytes.length) break;
    directories.push({ start, next });
    start = offsetAt(view, next, layout);
  }
  return directories;
}

/**
 * The pages of a TIFF, each as a TIFF of one page, made when asked for (a copy of the file each). OCR's decoder
 * (Leptonica) and the image-size check read a TIFF's first directory only; a page's copy is the same file with its
 * header pointing at that page's directory and the directory's link to the next one cut, so every offset inside
 * (strips, tiles, tag values) stays valid and any compression the decoder reads still works. One entry for a
 * single-page TIFF; none for bytes that are not a TIFF or have no readable directory.
 */
export function tiffPages(bytes: Uint8Array): Array<() => Uint8Array> {
  const layout = layoutOf(bytes);
  if (!layout) return [];
  return directoryOffsets(bytes, layout).map(({ start, next }) => () => {
    const page = new Uint8Array(bytes);
    const view = new DataView(page.buffer, page.byteOffset, page.byteLength);
    if (layout.big) {
      view.setBigUint64(firstDirectoryField(layout), BigInt(start), layout.littleEndian);
      view.setBigUint64(next, 0n, layout.littleEndian);
    } else {
      view.setUint32(firstDirectoryField(layout), start, layout.littleEndian);
      view.setUint32(next, 0, layout.littleEndian);
    }
    return page;
  });
}

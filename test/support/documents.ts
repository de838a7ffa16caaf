import { crc32, createDeflate, createDeflateRaw } from 'node:zlib';
import JSZip from 'jszip';
import { memdClient, type ApiResponse } from './server.js';

/** A valid PDF with one page per string (lines split on \n, Helvetica), written by hand: header, objects, xref, trailer. */
export function minimalPdf(pages: readonly string[]): Buffer {
  const escapeText = (line: string) => line.replace(/[\\()]/g, (c) => `\\${c}`);
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    `<< /Type /Pages /Kids [${pages.map((_, i) => `${4 + 2 * i} 0 R`).join(' ')}] /Count ${pages.length} >>`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  pages.forEach((text, i) => {
    const content = text
      .split('\n')
      .map((line, row) => `BT /F1 11 Tf 56 ${760 - 14 * row} Td (${escapeText(line)}) Tj ET`)
      .join('\n');
    objects.push(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${5 + 2 * i} 0 R >>`,
    );
    objects.push(`<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}\nendstream`);
  });
  let pdf = '%PDF-1.4\n';
  const offsets = objects.map((body, i) => {
    const offset = Buffer.byteLength(pdf, 'latin1');
    pdf += `${i + 1} 0 obj\n${body}\nendobj\n`;
    return offset;
  });
  const xref = Buffer.byteLength(pdf, 'latin1');
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(pdf, 'latin1');
}

const xml = (body: string) => `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>${body}`;

/** A minimal Word document (content types, package relationship, document part) with one paragraph per string. */
export async function minimalDocx(paragraphs: readonly string[]): Promise<Buffer> {
  const zip = new JSZip();
  zip.file(
    '[Content_Types].xml',
    xml(
      '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
        '<Default Extension="xml" ContentType="application/xml"/>' +
        '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
    ),
  );
  zip.file(
    '_rels/.rels',
    xml(
      '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
        '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
    ),
  );
  const body = paragraphs
    .map(
      (p) => `<w:p><w:r><w:t xml:space="preserve">${p.replace(/&/g, '&amp;').replace(/</g, '&lt;')}</w:t></w:r></w:p>`,
    )
    .join('');
  zip.file(
    'word/document.xml',
    xml(
      `<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${body}</w:body></w:document>`,
    ),
  );
  return zip.generateAsync({ type: 'nodebuffer' });
}

export interface UploadFile {
  name: string;
  /** Sent as the part's Content-Type; omitted → application/octet-stream. */
  type?: string;
  bytes: Buffer | string;
}

/** POSTs a multipart upload to /v1/documents (fields as text, repeated when given an array). */
export async function uploadDocument(
  baseUrl: string,
  file: UploadFile | null,
  fields: Record<string, string | string[]> = {},
  options: { query?: string; headers?: Record<string, string> } = {},
): Promise<ApiResponse> {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) for (const v of [value].flat()) form.append(name, v);
  if (file) form.append('file', new Blob([file.bytes], { type: file.type ?? 'application/octet-stream' }), file.name);
  const answer = await memdClient(baseUrl).request<any>('POST', `/v1/documents${options.query ?? ''}`, {
    body: form,
    headers: options.headers ?? {},
  });
  return { status: answer.status, body: answer.data ?? '', headers: answer.headers };
}

/** Black text on white, one line per string, as a PNG, JPEG or WebP: what a scan or a screenshot of text looks like. */
export async function textImage(lines: readonly string[], format: 'png' | 'jpeg' | 'webp' = 'png'): Promise<Buffer> {
  const { createCanvas } = await import('@napi-rs/canvas');
  const canvas = createCanvas(40 + 17 * Math.max(...lines.map((l) => l.length)), 30 + 44 * lines.length);
  const context = canvas.getContext('2d');
  context.fillStyle = 'white';
  context.fillRect(0, 0, canvas.width, canvas.height);
  context.fillStyle = 'black';
  context.font = '30px sans-serif';
  lines.forEach((line, i) => {
    context.fillText(line, 20, 50 + 44 * i);
  });
  return format === 'png'
    ? canvas.encode('png')
    : format === 'jpeg'
      ? canvas.encode('jpeg', 90)
      : canvas.encode('webp', 90);
}

/** The same picture as an uncompressed baseline TIFF (RGB, one strip), written by hand: header, pixels, one IFD. */
export const textTiff = (lines: readonly string[]): Promise<Buffer> => multiPageTiff([lines]);

/** RGB pixels of `textImage(lines)`, three bytes a pixel, row by row. */
async function rgbPixels(lines: readonly string[]): Promise<{ width: number; height: number; pixels: Buffer }> {
  const { loadImage, createCanvas } = await import('@napi-rs/canvas');
  const image = await loadImage(await textImage(lines));
  const canvas = createCanvas(image.width, image.height);
  const context = canvas.getContext('2d');
  context.drawImage(image, 0, 0);
  const rgba = context.getImageData(0, 0, image.width, image.height).data;
  const pixels = Buffer.alloc(image.width * image.height * 3);
  for (let i = 0, j = 0; i < rgba.length; i += 4, j += 3) pixels.set([rgba[i]!, rgba[i + 1]!, rgba[i + 2]!], j);
  return { width: image.width, height: image.height, pixels };
}

/**
 * A TIFF with one page per entry (each `textImage` of its lines), little-endian, uncompressed, written by hand: the
 * header, then for each page its pixels (padded to an even length), its IFD and the IFD's BitsPerSample values; each
 * IFD links to the next.
 */
export async function multiPageTiff(pages: ReadonlyArray<readonly string[]>): Promise<Buffer> {
  const parts: Buffer[] = [Buffer.from([0x49, 0x49, 42, 0, 0, 0, 0, 0])];
  let size = 8;
  let link = 4; // where the offset of the next IFD goes: the header's, then each IFD's last four bytes
  for (const lines of pages) {
    const { width, height, pixels } = await rgbPixels(lines);
    const stripOffset = size;
    const padded = Buffer.concat([pixels, Buffer.alloc(pixels.length % 2)]);
    const ifdOffset = stripOffset + padded.length;
    const entries: Array<[tag: number, type: number, value: number]> = [
      [256, 4, width], // ImageWidth
      [257, 4, height], // ImageLength
      [258, 3, 0], // BitsPerSample: three values, stored after the IFD
      [259, 3, 1], // Compression: none
      [262, 3, 2], // PhotometricInterpretation: RGB
      [273, 4, stripOffset], // StripOffsets
      [277, 3, 3], // SamplesPerPixel
      [278, 4, height], // RowsPerStrip
      [279, 4, pixels.length], // StripByteCounts
      [284, 3, 1], // PlanarConfiguration: chunky
    ];
    const bitsOffset = ifdOffset + 2 + entries.length * 12 + 4;
    const ifd = Buffer.alloc(2 + entries.length * 12 + 4 + 6);
    ifd.writeUInt16LE(entries.length, 0);
    entries.forEach(([tag, type, value], i) => {
      const at = 2 + i * 12;
      ifd.writeUInt16LE(tag, at);
      ifd.writeUInt16LE(type, at + 2);
      ifd.writeUInt32LE(tag === 258 ? 3 : 1, at + 4);
      if (tag === 258) ifd.writeUInt32LE(bitsOffset, at + 8);
      else if (type === 3) ifd.writeUInt16LE(value, at + 8);
      else ifd.writeUInt32LE(value, at + 8);
    });
    [8, 8, 8].forEach((bits, i) => {
      ifd.writeUInt16LE(bits, 2 + entries.length * 12 + 4 + 2 * i);
    });
    // Link the previous IFD (or the header) to this one.
    const linked = Buffer.concat(parts);
    linked.writeUInt32LE(ifdOffset, link);
    parts.splice(0, parts.length, linked, padded, ifd);
    link = ifdOffset + 2 + entries.length * 12;
    size = ifdOffset + ifd.length;
  }
  return Buffer.concat(parts);
}

/**
 * A page of a generated PDF: text drawn as text (a text layer), an image of text only (a scan: no text layer), or
 * `count` different blank grey images of `width` × `height` pixels, each a few kilobytes deflated whatever its size
 * (what a hostile file draws to make the renderer decode far more than it weighs).
 */
export type PdfPage =
  | { text: string }
  | { scan: readonly string[] }
  | { blankImages: { width: number; height: number; count: number } };

/** A PDF written by pdf-lib, small pages (400 × 200 pt), one per entry. */
export async function pdfWithScans(pages: readonly PdfPage[]): Promise<Buffer> {
  const {
    PDFDocument,
    PDFName,
    PDFRawStream,
    StandardFonts,
    concatTransformationMatrix,
    drawObject,
    popGraphicsState,
    pushGraphicsState,
  } = await import('pdf-lib');
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (const content of pages) {
    const page = pdf.addPage([400, 200]);
    if ('blankImages' in content) {
      const { width, height, count } = content.blankImages;
      const data = await deflated(width * height, 0xff);
      for (let i = 0; i < count; i++) {
        const dict = pdf.context.obj({
          Type: 'XObject',
          Subtype: 'Image',
          Width: width,
          Height: height,
          ColorSpace: 'DeviceGray',
          BitsPerComponent: 8,
          Filter: 'FlateDecode',
          Length: data.length,
        });
        // A distinct object each (a repeated reference would be decoded once).
        const ref = pdf.context.register(PDFRawStream.of(dict, data));
        page.node.setXObject(PDFName.of(`Im${i}`), ref);
        page.pushOperators(
          pushGraphicsState(),
          concatTransformationMatrix(400, 0, 0, 200, 0, 0),
          drawObject(`Im${i}`),
          popGraphicsState(),
        );
      }
    } else if ('text' in content) {
      page.drawText(content.text, { x: 20, y: 170, size: 11, font, maxWidth: 360, lineHeight: 14 });
    } else {
      const image = await pdf.embedPng(await textImage(content.scan));
      const scale = Math.min(360 / image.width, 160 / image.height);
      page.drawImage(image, {
        x: 20,
        y: 180 - image.height * scale,
        width: image.width * scale,
        height: image.height * scale,
      });
    }
  }
  return Buffer.from(await pdf.save());
}

/** `bytes` bytes of `value`, zlib-deflated a chunk at a time (never all in memory). */
async function deflated(bytes: number, value: number): Promise<Buffer> {
  const deflate = createDeflate({ level: 9 });
  const out: Buffer[] = [];
  deflate.on('data', (chunk: Buffer) => out.push(chunk));
  const ended = new Promise((resolve) => deflate.once('end', resolve));
  const unit = Buffer.alloc(1024 * 1024, value);
  for (let left = bytes; left > 0; left -= unit.length) {
    if (!deflate.write(left >= unit.length ? unit : unit.subarray(0, left)))
      await new Promise((resolve) => deflate.once('drain', resolve));
  }
  deflate.end();
  await ended;
  return Buffer.concat(out);
}

interface ZipEntry {
  name: string;
  /** Stored (method 0) or raw-deflated (method 8) bytes. */
  data: Buffer;
  method: 0 | 8;
  crc: number;
  /** The uncompressed size the archive states (a lying archive states less than the data inflates to). */
  size: number;
}

/** A zip archive of prepared entries, written by hand so that sizes and compression can be whatever a test needs. */
function zipArchive(entries: readonly ZipEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(entry.method, 8);
    local.writeUInt16LE(33, 12); // 1980-01-01
    local.writeUInt32LE(entry.crc, 14);
    local.writeUInt32LE(entry.data.length, 18);
    local.writeUInt32LE(entry.size, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(entry.method, 10);
    central.writeUInt16LE(33, 14);
    central.writeUInt32LE(entry.crc, 16);
    central.writeUInt32LE(entry.data.length, 20);
    central.writeUInt32LE(entry.size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, entry.data);
    centrals.push(central, name);
    offset += local.length + name.length + entry.data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

const stored = (name: string, text: string): ZipEntry => {
  const data = Buffer.from(text);
  return { name, data, method: 0, crc: crc32(data), size: data.length };
};

/** Deflates `head`, then `body` repeated up to `bytes` in all, then `tail`, a chunk at a time (never all in memory). */
async function deflatedRun(
  head: string,
  body: string,
  tail: string,
  bytes: number,
): Promise<{ data: Buffer; crc: number; size: number }> {
  const deflate = createDeflateRaw({ level: 9 });
  const out: Buffer[] = [];
  deflate.on('data', (chunk: Buffer) => out.push(chunk));
  const ended = new Promise((resolve) => deflate.once('end', resolve));
  let crc = 0;
  let size = 0;
  const write = async (chunk: Buffer) => {
    crc = crc32(chunk, crc);
    size += chunk.length;
    if (!deflate.write(chunk)) await new Promise((resolve) => deflate.once('drain', resolve));
  };
  await write(Buffer.from(head));
  const unit = Buffer.from(body.repeat(Math.max(1, Math.floor((1024 * 1024) / body.length))));
  const room = bytes - head.length - tail.length;
  for (let left = room; left > 0; left -= unit.length)
    await write(left >= unit.length ? unit : unit.subarray(0, left - (left % body.length)));
  await write(Buffer.from(tail));
  deflate.end();
  await ended;
  return { data: Buffer.concat(out), crc, size };
}

/**
 * A Word document whose main part (`word/document.xml`) inflates to about `bytes`: `paragraph` repeated inside the
 * body. One letter repeated deflates about 1,000:1 (1 GiB in 1 MB); `declare` makes the archive state a smaller size
 * for the part than it inflates to.
 */
export async function inflatingDocx(
  bytes: number,
  options: { paragraph?: string; declare?: number } = {},
): Promise<Buffer> {
  const paragraph = options.paragraph ?? 'a';
  const open =
    xml('<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>') +
    (options.paragraph ? '' : '<w:p><w:r><w:t>');
  const close = `${options.paragraph ? '' : '</w:t></w:r></w:p>'}</w:body></w:document>`;
  const main = await deflatedRun(open, paragraph, close, bytes);
  return zipArchive([
    stored(
      '[Content_Types].xml',
      xml(
        '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
          '<Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
      ),
    ),
    stored(
      '_rels/.rels',
      xml(
        '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
      ),
    ),
    { name: 'word/document.xml', data: main.data, method: 8, crc: main.crc, size: options.declare ?? main.size },
  ]);
}

import JSZip from 'jszip';
import type { ApiResponse } from './server.js';

/** A valid PDF with one page per string (lines split on \n, Helvetica), written by hand: header, objects, xref, trailer. */
export function minimalPdf(pages: readonly string[]): Buffer {
  const escape = (line: string) => line.replace(/[\\()]/g, (c) => `\\${c}`);
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    `<< /Type /Pages /Kids [${pages.map((_, i) => `${4 + 2 * i} 0 R`).join(' ')}] /Count ${pages.length} >>`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  pages.forEach((text, i) => {
    const content = text
      .split('\n')
      .map((line, row) => `BT /F1 11 Tf 56 ${760 - 14 * row} Td (${escape(line)}) Tj ET`)
      .join('\n');
    objects.push(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${5 + 2 * i} 0 R >>`);
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
  const body = paragraphs.map((p) => `<w:p><w:r><w:t xml:space="preserve">${p.replace(/&/g, '&amp;').replace(/</g, '&lt;')}</w:t></w:r></w:p>`).join('');
  zip.file('word/document.xml', xml(`<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${body}</w:body></w:document>`));
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
  const response = await fetch(`${baseUrl}/v1/documents${options.query ?? ''}`, { method: 'POST', body: form, headers: options.headers ?? {} });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : text, headers: response.headers };
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
  lines.forEach((line, i) => context.fillText(line, 20, 50 + 44 * i));
  return format === 'png' ? canvas.encode('png') : format === 'jpeg' ? canvas.encode('jpeg', 90) : canvas.encode('webp', 90);
}

/** The same picture as an uncompressed baseline TIFF (RGB, one strip), written by hand: header, pixels, one IFD. */
export async function textTiff(lines: readonly string[]): Promise<Buffer> {
  const { loadImage, createCanvas } = await import('@napi-rs/canvas');
  const image = await loadImage(await textImage(lines));
  const canvas = createCanvas(image.width, image.height);
  const context = canvas.getContext('2d');
  context.drawImage(image, 0, 0);
  const rgba = context.getImageData(0, 0, image.width, image.height).data;
  const pixels = Buffer.alloc(image.width * image.height * 3);
  for (let i = 0, j = 0; i < rgba.length; i += 4, j += 3) pixels.set([rgba[i]!, rgba[i + 1]!, rgba[i + 2]!], j);
  const ifdOffset = 8 + pixels.length;
  const bitsOffset = ifdOffset + 2 + 10 * 12 + 4;
  const entries: Array<[tag: number, type: number, value: number]> = [
    [256, 4, image.width], // ImageWidth
    [257, 4, image.height], // ImageLength
    [258, 3, bitsOffset], // BitsPerSample: three values, stored after the IFD
    [259, 3, 1], // Compression: none
    [262, 3, 2], // PhotometricInterpretation: RGB
    [273, 4, 8], // StripOffsets
    [277, 3, 3], // SamplesPerPixel
    [278, 4, image.height], // RowsPerStrip
    [279, 4, pixels.length], // StripByteCounts
    [284, 3, 1], // PlanarConfiguration: chunky
  ];
  const ifd = Buffer.alloc(2 + entries.length * 12 + 4 + 6);
  ifd.writeUInt16LE(entries.length, 0);
  entries.forEach(([tag, type, value], i) => {
    const at = 2 + i * 12;
    ifd.writeUInt16LE(tag, at);
    ifd.writeUInt16LE(type, at + 2);
    ifd.writeUInt32LE(tag === 258 ? 3 : 1, at + 4);
    if (type === 3 && tag !== 258) ifd.writeUInt16LE(value, at + 8);
    else ifd.writeUInt32LE(value, at + 8);
  });
  [8, 8, 8].forEach((bits, i) => ifd.writeUInt16LE(bits, 2 + entries.length * 12 + 4 + 2 * i));
  const header = Buffer.from([0x49, 0x49, 42, 0, 0, 0, 0, 0]);
  header.writeUInt32LE(ifdOffset, 4);
  return Buffer.concat([header, pixels, ifd]);
}

/** A page of a generated PDF: text drawn as text (a text layer), or an image of text only (a scan: no text layer). */
export type PdfPage = { text: string } | { scan: readonly string[] };

/** A PDF written by pdf-lib, small pages (400 × 200 pt), one per entry. */
export async function pdfWithScans(pages: readonly PdfPage[]): Promise<Buffer> {
  const { PDFDocument, StandardFonts } = await import('pdf-lib');
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (const content of pages) {
    const page = pdf.addPage([400, 200]);
    if ('text' in content) {
      page.drawText(content.text, { x: 20, y: 170, size: 11, font, maxWidth: 360, lineHeight: 14 });
    } else {
      const image = await pdf.embedPng(await textImage(content.scan));
      const scale = Math.min(360 / image.width, 160 / image.height);
      page.drawImage(image, { x: 20, y: 180 - image.height * scale, width: image.width * scale, height: image.height * scale });
    }
  }
  return Buffer.from(await pdf.save());
}

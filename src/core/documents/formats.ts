import { extname } from 'node:path';
import { AppError } from '../../errors.js';
import type { DocumentType } from '../../storage/types.js';

interface Format {
  type: DocumentType;
  /** The canonical media type, recorded when the upload's own is generic. */
  mime: string;
  mimes: readonly string[];
  extensions: readonly string[];
  /** Recognises the file by its first bytes, when nothing else names its type. */
  signature?: (head: Buffer) => boolean;
}

const startsWith = (prefix: string) => (head: Buffer) => head.subarray(0, prefix.length).toString('latin1') === prefix;
/** RIFF containers name their kind at bytes 8-11 (WAVE, WEBP). */
const riff = (kind: string) => (head: Buffer) =>
  startsWith('RIFF')(head) && head.subarray(8, 12).toString('latin1') === kind;

const FORMATS: readonly Format[] = [
  {
    type: 'pdf',
    mime: 'application/pdf',
    mimes: ['application/pdf', 'application/x-pdf'],
    extensions: ['.pdf'],
    signature: startsWith('%PDF-'),
  },
  {
    type: 'docx',
    mime: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    mimes: ['application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
    extensions: ['.docx'],
  },
  {
    type: 'markdown',
    mime: 'text/markdown',
    mimes: ['text/markdown', 'text/x-markdown'],
    extensions: ['.md', '.markdown'],
  },
  {
    type: 'html',
    mime: 'text/html',
    mimes: ['text/html', 'application/xhtml+xml'],
    extensions: ['.html', '.htm', '.xhtml'],
  },
  { type: 'text', mime: 'text/plain', mimes: ['text/plain'], extensions: ['.txt', '.text'] },
  // Images are read by OCR, one page each.
  {
    type: 'image',
    mime: 'image/png',
    mimes: ['image/png'],
    extensions: ['.png'],
    signature: startsWith('\x89PNG\r\n\x1a\n'),
  },
  {
    type: 'image',
    mime: 'image/jpeg',
    mimes: ['image/jpeg', 'image/jpg', 'image/pjpeg'],
    extensions: ['.jpg', '.jpeg'],
    signature: startsWith('\xff\xd8\xff'),
  },
  {
    type: 'image',
    mime: 'image/tiff',
    mimes: ['image/tiff', 'image/tif'],
    extensions: ['.tif', '.tiff'],
    signature: (h) => startsWith('II*\0')(h) || startsWith('MM\0*')(h),
  },
  { type: 'image', mime: 'image/webp', mimes: ['image/webp'], extensions: ['.webp'], signature: riff('WEBP') },
  // Audio is transcribed, when a transcription endpoint is configured.
  {
    type: 'audio',
    mime: 'audio/mpeg',
    mimes: ['audio/mpeg', 'audio/mp3', 'audio/mpga'],
    extensions: ['.mp3', '.mpga', '.mpeg'],
    signature: startsWith('ID3'),
  },
  {
    type: 'audio',
    mime: 'audio/wav',
    mimes: ['audio/wav', 'audio/x-wav', 'audio/wave', 'audio/vnd.wave'],
    extensions: ['.wav'],
    signature: riff('WAVE'),
  },
  { type: 'audio', mime: 'audio/mp4', mimes: ['audio/mp4', 'audio/m4a', 'audio/x-m4a'], extensions: ['.m4a', '.mp4'] },
  {
    type: 'audio',
    mime: 'audio/ogg',
    mimes: ['audio/ogg', 'audio/opus'],
    extensions: ['.ogg', '.oga', '.opus'],
    signature: startsWith('OggS'),
  },
  {
    type: 'audio',
    mime: 'audio/webm',
    mimes: ['audio/webm'],
    extensions: ['.webm'],
    signature: startsWith('\x1a\x45\xdf\xa3'),
  },
  {
    type: 'audio',
    mime: 'audio/flac',
    mimes: ['audio/flac', 'audio/x-flac'],
    extensions: ['.flac'],
    signature: startsWith('fLaC'),
  },
];

export const SUPPORTED_TYPES_TEXT =
  'text (.txt), Markdown (.md), HTML (.html), PDF (.pdf), Word (.docx), images for OCR (.png, .jpg, .tiff, .webp) and audio for transcription (.mp3, .wav, .m4a, .ogg, .webm, .flac)';

/**
 * What an upload is: a specific declared media type first, then the file name's extension (clients often send
 * `application/octet-stream`, and `text/plain` for Markdown), then the file's signature. Anything else is a 415.
 * Whether the bytes really are of that type is the extractor's question: a mislabelled file fails its job.
 */
export function detectFormat(
  filename: string,
  declaredMime: string | undefined,
  head: Uint8Array,
): { type: DocumentType; mime: string } {
  const mime = declaredMime?.split(';')[0]?.trim().toLowerCase() ?? '';
  const byMime = FORMATS.find((f) => f.mimes.includes(mime));
  if (byMime && byMime.type !== 'text') return { type: byMime.type, mime };
  const extension = extname(filename).toLowerCase();
  const byExtension = FORMATS.find((f) => f.extensions.includes(extension));
  if (byExtension) return { type: byExtension.type, mime: byMime ? mime : byExtension.mime };
  if (byMime) return { type: byMime.type, mime };
  const bySignature = FORMATS.find((f) => f.signature?.(Buffer.from(head.subarray(0, 16))));
  if (bySignature) return { type: bySignature.type, mime: bySignature.mime };
  throw new AppError(
    'unsupported_media_type',
    `'${filename}' (${mime || 'no media type'}) is not a supported document; supported: ${SUPPORTED_TYPES_TEXT}`,
  );
}

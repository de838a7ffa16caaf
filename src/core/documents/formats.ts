import { extname } from 'node:path';
import { AppError } from '../../errors.js';
import type { DocumentType } from '../../storage/types.js';

interface Format {
  type: DocumentType;
  /** The canonical media type, recorded when the upload's own is generic. */
  mime: string;
  mimes: readonly string[];
  extensions: readonly string[];
}

const FORMATS: readonly Format[] = [
  { type: 'pdf', mime: 'application/pdf', mimes: ['application/pdf', 'application/x-pdf'], extensions: ['.pdf'] },
  {
    type: 'docx',
    mime: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    mimes: ['application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
    extensions: ['.docx'],
  },
  { type: 'markdown', mime: 'text/markdown', mimes: ['text/markdown', 'text/x-markdown'], extensions: ['.md', '.markdown'] },
  { type: 'html', mime: 'text/html', mimes: ['text/html', 'application/xhtml+xml'], extensions: ['.html', '.htm', '.xhtml'] },
  { type: 'text', mime: 'text/plain', mimes: ['text/plain'], extensions: ['.txt', '.text'] },
];

export const SUPPORTED_TYPES_TEXT = 'text (.txt), Markdown (.md), HTML (.html), PDF (.pdf) and Word (.docx)';

const PDF_MAGIC = '%PDF-';

/**
 * What an upload is: a specific declared media type first, then the file name's extension (clients often send
 * `application/octet-stream`, and `text/plain` for Markdown), then the PDF signature. Anything else is a 415.
 * Whether the bytes really are of that type is the extractor's question: a mislabelled file fails its job.
 */
export function detectFormat(filename: string, declaredMime: string | undefined, head: Uint8Array): { type: DocumentType; mime: string } {
  const mime = declaredMime?.split(';')[0]?.trim().toLowerCase() ?? '';
  const byMime = FORMATS.find((f) => f.mimes.includes(mime));
  if (byMime && byMime.type !== 'text') return { type: byMime.type, mime };
  const extension = extname(filename).toLowerCase();
  const byExtension = FORMATS.find((f) => f.extensions.includes(extension));
  if (byExtension) return { type: byExtension.type, mime: byMime ? mime : byExtension.mime };
  if (byMime) return { type: byMime.type, mime };
  if (Buffer.from(head.subarray(0, PDF_MAGIC.length)).toString('latin1') === PDF_MAGIC) return { type: 'pdf', mime: 'application/pdf' };
  throw new AppError('unsupported_media_type', `'${filename}' (${mime || 'no media type'}) is not a supported document; supported: ${SUPPORTED_TYPES_TEXT}`);
}

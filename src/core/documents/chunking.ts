import { splitSentences } from '../text/index.js';

/** A piece of text and what joins it to the piece before: a paragraph break or a space within a paragraph. */
interface Piece {
  text: string;
  joiner: '\n\n' | ' ';
}

/** Cuts text longer than `maxChars` at word boundaries (at a hard cut when a word alone is longer). */
function cutAtWords(text: string, maxChars: number): string[] {
  const parts: string[] = [];
  let rest = text;
  while (rest.length > maxChars) {
    const space = rest.lastIndexOf(' ', maxChars);
    const cut = space > 0 ? space : maxChars;
    parts.push(rest.slice(0, cut).trim());
    rest = rest.slice(cut).trim();
  }
  if (rest) parts.push(rest);
  return parts;
}

/** Paragraphs that fit whole; longer ones as their sentences; longer sentences cut at words. */
function piecesOf(text: string, maxChars: number): Piece[] {
  const paragraphs = text
    .split(/\n[ \t]*\n/)
    .map((p) => p.replace(/[ \t]+\n/g, '\n').trim())
    .filter((p) => p.length > 0);
  return paragraphs.flatMap((paragraph) => {
    const parts =
      paragraph.length <= maxChars ? [paragraph] : splitSentences(paragraph).flatMap((s) => cutAtWords(s, maxChars));
    return parts.map((part, i): Piece => ({ text: part, joiner: i === 0 ? '\n\n' : ' ' }));
  });
}

/**
 * Splits text into consecutive segments of at most `maxChars`, breaking between paragraphs where it can, else
 * between sentences, else between words, and packing as many whole pieces into each segment as fit. Used for the
 * pages of formats that have none (text, Markdown, HTML, Word) and for the chunks of every page.
 */
export function packText(text: string, maxChars: number): string[] {
  const segments: string[] = [];
  let current = '';
  for (const piece of piecesOf(text, maxChars)) {
    if (current && current.length + piece.joiner.length + piece.text.length <= maxChars) {
      current += piece.joiner + piece.text;
    } else {
      if (current) segments.push(current);
      current = piece.text;
    }
  }
  if (current) segments.push(current);
  return segments;
}

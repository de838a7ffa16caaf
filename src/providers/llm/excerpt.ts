/** Whitespace-collapsed and cut: enough of an upstream text to act on, not enough to flood a log. */
export function excerpt(text: string, maxChars = 300): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= maxChars ? flat : `${flat.slice(0, maxChars)}…`;
}

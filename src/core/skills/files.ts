import { createHash } from 'node:crypto';
import { invalid } from '../../errors.js';
import type { SkillFile } from '../../storage/types.js';

export type FileEncoding = 'utf8' | 'base64';

export const MAX_FILE_PATH = 512;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
// Control characters and the characters Windows cannot have in a name: a bundle must unpack anywhere.
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this pattern refuses.
const UNSAFE_CHARACTER = /[\u0000-\u001f\u007f\\:*?"<>|]/;

export const sha256Hex = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');

/**
 * A file path inside a skill: relative, `/`-separated, no empty, `.` or `..` segment, no absolute or drive path,
 * no backslash or control character. Whatever unpacks a bundle cannot be led outside the skill's folder.
 */
export function checkFilePath(path: string, pointer = '/path'): string {
  const problem =
    path.length === 0 || path.length > MAX_FILE_PATH
      ? `must be 1 to ${MAX_FILE_PATH} characters`
      : path.startsWith('/')
        ? 'must be relative, not absolute'
        : UNSAFE_CHARACTER.test(path)
          ? 'must not contain control characters, backslashes or any of : * ? " < > |'
          : path.split('/').some((segment) => segment === '' || segment === '.' || segment === '..')
            ? 'must not contain empty, `.` or `..` segments'
            : null;
  if (problem) throw invalid(pointer, problem);
  return path;
}

/** Content sent as text (utf8) or as base64 for any bytes. */
export function decodeContent(content: string, encoding: FileEncoding, pointer = '/content'): Buffer {
  if (encoding === 'utf8') return Buffer.from(content, 'utf8');
  if (!BASE64.test(content)) throw invalid(pointer, 'is not valid base64');
  return Buffer.from(content, 'base64');
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The bytes as text when they are valid UTF-8; null otherwise. */
export function utf8Text(bytes: Buffer): string | null {
  try {
    return utf8.decode(bytes);
  } catch {
    return null;
  }
}

/** Text files as text, anything else as base64. */
export function encodeContent(bytes: Buffer): { encoding: FileEncoding; content: string } {
  const text = utf8Text(bytes);
  return text === null
    ? { encoding: 'base64', content: bytes.toString('base64') }
    : { encoding: 'utf8', content: text };
}

/** A file record for `content` stored at `at`. */
export function skillFile(path: string, content: Buffer, at: string): SkillFile {
  return { path, content, size: content.length, sha256: sha256Hex(content), created_at: at, updated_at: at };
}

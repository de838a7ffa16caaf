import secureJson from 'secure-json-parse';
import { AppError } from '../errors.js';
import type { App } from './server.js';

/**
 * Whether JSON text nests objects and arrays more than `maxDepth` levels (`{}` is one level, `{"a": []}` two).
 * Scanned before parsing: a value nested thousands of levels deep parses, but every recursive walk after it
 * (validation, `JSON.stringify`, the database drivers) overflows the stack.
 */
export function nestsDeeperThan(text: string, maxDepth: number): boolean {
  // Each level takes one character at least.
  if (text.length <= maxDepth) return false;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // a backslash escapes the next character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > maxDepth) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}

const refused = (path: string, message: string): AppError =>
  new AppError('invalid_json', path ? `${path.replace(/^\//, '')} ${message}` : message, {
    details: [{ path, message }],
  });

/**
 * The first string (value or key) that no database here can store as text: one holding NUL (PostgreSQL text
 * cannot) or half of a surrogate pair (not Unicode; PostgreSQL's JSON refuses its escape). Both can only come
 * from `\u` escapes, as raw bytes they are not valid UTF-8 JSON.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is one of the characters this pattern refuses.
const UNSTORABLE = /[\u0000\p{Cs}]/u; // with the u flag, \p{Cs} matches a surrogate only where it is unpaired

function unstorableStringAt(value: unknown, path: string): string | undefined {
  if (typeof value === 'string') return UNSTORABLE.test(value) ? path : undefined;
  if (typeof value !== 'object' || value === null) return undefined;
  for (const [key, item] of Object.entries(value)) {
    const itemPath = `${path}/${key}`;
    if (UNSTORABLE.test(key)) return itemPath;
    const found = unstorableStringAt(item, itemPath);
    if (found) return found;
  }
  return undefined;
}

/**
 * JSON a client sent (a body, an import line, a form field), refused with a 400 `invalid_json` naming `path` when it
 * nests deeper than `maxDepth` or holds text that cannot be stored. Malformed JSON, or a `__proto__` /
 * `constructor.prototype` key (prototype poisoning), throws a SyntaxError.
 */
export function parseClientJson(text: string, maxDepth: number, path: string): unknown {
  if (nestsDeeperThan(text, maxDepth))
    throw refused(path, `nests objects and arrays deeper than ${maxDepth} levels (MEMD_JSON_MAX_DEPTH)`);
  const value = secureJson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' }) as unknown;
  const unstorable = text.includes('\\u') ? unstorableStringAt(value, path) : undefined;
  if (unstorable)
    throw refused(
      unstorable,
      'holds a NUL character or an unpaired surrogate (\\u0000, \\ud800…), which text cannot hold',
    );
  return value;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });
const isBlank = (text: string): boolean => !/\S/.test(text);

/**
 * The one parser of request bodies on every route: JSON, in UTF-8. Clients send `Content-Type: application/json`
 * on every call, those without a body too, so an empty body is no body (the route's schema then decides whether it
 * needs one). Any other media type is a 415, except where a route adds its own parser (multipart uploads, NDJSON
 * imports).
 */
export function acceptJsonBodies(app: App, maxDepth: number): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => {
    let text: string;
    try {
      text = utf8.decode(body as Buffer);
    } catch {
      done(refused('/body', 'is not valid UTF-8'), undefined);
      return;
    }
    if (isBlank(text)) {
      done(null, undefined);
      return;
    }
    try {
      done(null, parseClientJson(text, maxDepth, '/body'));
    } catch (error) {
      done(error as Error, undefined);
    }
  });
}

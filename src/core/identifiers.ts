/**
 * What a client-chosen identifier (a workspace, a context, a user) may hold: letters, digits and `_ . : @ -`, at most
 * 128 characters. Safe as it is in a URL path, a header, a resource URI and a file name; the API's request schemas
 * declare it (`Identifier`), and the workspace resolver holds every transport's workspace hints to it.
 */
export const IDENTIFIER_PATTERN = '^[A-Za-z0-9_.:@-]+$';
export const IDENTIFIER_MAX_LENGTH = 128;

const IDENTIFIER = new RegExp(IDENTIFIER_PATTERN);

export const isIdentifier = (value: string): boolean =>
  value.length >= 1 && value.length <= IDENTIFIER_MAX_LENGTH && IDENTIFIER.test(value);

/** The rule in words, for the messages that refuse a name outside it. */
export const IDENTIFIER_RULE = 'letters, digits and _ . : @ - only, 1 to 128 characters';

import { randomBytes } from 'node:crypto';

/** Resource identifiers: a prefix and 16 random hex digits (sessions: 32), as the reference service issues them. */
export type IdPrefix =
  | 'mem'
  | 'ws'
  | 'ctx'
  | 'assoc'
  | 'ctr'
  | 'app'
  | 'thread'
  | 'msg'
  | 'key'
  | 'job'
  | 'kb'
  | 'doc'
  | 'page'
  | 'skill'
  | 'mcp'
  | 'dp'
  | 'erasure';

export const newId = (prefix: IdPrefix): string => `${prefix}_${randomBytes(8).toString('hex')}`;

export const newSessionId = (): string => `sess_${randomBytes(16).toString('hex')}`;

export { MEMORY_TYPES } from '../../schemas/memory-types.js';

export const MEMORY_SUBTYPES = [
  'solution',
  'problem',
  'code_pattern',
  'fix',
  'error',
  'workflow',
  'preference',
  'decision',
  'profile',
  'entity',
  'event',
  'directive',
  'inference',
] as const;

export type MemorySubtype = (typeof MEMORY_SUBTYPES)[number];

import type { components } from './generated/openapi.js';

/** A stored memory, as every route returns it. */
export type Memory = components['schemas']['Memory'];

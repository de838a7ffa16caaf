import { describe, expect, it } from 'vitest';
import {
  RECALL_DEFAULTS,
  relevanceThreshold,
  requestFilter,
  resolveOptions,
} from '../../../src/core/recall/options.js';
import type { RecallRequest } from '../../../src/core/recall/types.js';

const request = (extra: Partial<RecallRequest> = {}): RecallRequest => ({
  query: 'where is the staging database?',
  workspaceId: 'ws',
  ...extra,
});

describe('relevanceThreshold', () => {
  it('is the tolerance floor when no min_relevance is given', () => {
    expect(relevanceThreshold('loose', null)).toBe(0.15);
    expect(relevanceThreshold('moderate', undefined)).toBe(0.3);
    expect(relevanceThreshold('strict', null)).toBe(0.6);
  });

  it('is none for a min_relevance of 0 or below, whatever the tolerance', () => {
    expect(relevanceThreshold('strict', 0)).toBe(0);
    expect(relevanceThreshold('moderate', -1)).toBe(0);
  });

  it('is the larger of min_relevance and the tolerance floor', () => {
    expect(relevanceThreshold('moderate', 0.5)).toBe(0.5);
    expect(relevanceThreshold('strict', 0.4)).toBe(0.6);
  });
});

describe('requestFilter', () => {
  it('asks for active memories only, with no filter the request did not set', () => {
    expect(requestFilter(request())).toEqual({ statuses: ['active'] });
  });

  it('adds archived memories on request, never deleted ones', () => {
    expect(requestFilter(request({ includeArchived: true }))).toEqual({ statuses: ['active', 'archived'] });
  });

  it('carries every filter the request sets, and leaves out empty lists', () => {
    expect(
      requestFilter(
        request({
          types: ['semantic'],
          subtypes: [],
          tags: ['finance'],
          contextId: 'ctx-a',
          observerId: 'agent-1',
          subjectId: 'bob',
          userId: 'u1',
          createdAfter: '2026-01-01T00:00:00.000Z',
          createdBefore: '2026-02-01T00:00:00.000Z',
          excludeIds: [],
        }),
      ),
    ).toEqual({
      statuses: ['active'],
      types: ['semantic'],
      tags: ['finance'],
      contextId: 'ctx-a',
      observerId: 'agent-1',
      subjectId: 'bob',
      userId: 'u1',
      createdAfter: '2026-01-01T00:00:00.000Z',
      createdBefore: '2026-02-01T00:00:00.000Z',
    });
  });
});

describe('resolveOptions', () => {
  it('fills what the request leaves unset with the defaults', () => {
    expect(resolveOptions(request(), ['general'], false)).toEqual({
      limit: 10,
      threshold: 0.3,
      recencyWeight: 0.2,
      includeAssociations: true,
      traverseDepth: 2,
      maxExpansion: 50,
      ragThreshold: 0.8,
      detailLevel: 'full',
      filter: { statuses: ['active'] },
      scopeContextId: undefined,
      explain: false,
    });
  });

  it('raises the recency weight for a temporal or event query, unless it names its own window', () => {
    const weight = (intents: Parameters<typeof resolveOptions>[1], namesWindow: boolean) =>
      resolveOptions(request(), intents, namesWindow).recencyWeight;
    expect(weight(['temporal'], false)).toBe(RECALL_DEFAULTS.temporalRecencyWeight);
    expect(weight(['event'], false)).toBe(RECALL_DEFAULTS.temporalRecencyWeight);
    expect(weight(['temporal'], true)).toBe(RECALL_DEFAULTS.recencyWeight);
    expect(weight(['entity'], false)).toBe(RECALL_DEFAULTS.recencyWeight);
  });

  it('keeps what the caller set over what the intent would choose', () => {
    const resolved = resolveOptions(
      request({ recencyWeight: 0, includeAssociations: false, tolerance: 'strict', minRelevance: 0.7 }),
      ['temporal', 'entity'],
      false,
    );
    expect(resolved).toMatchObject({ recencyWeight: 0, includeAssociations: false, threshold: 0.7 });
  });

  it('prefers the request’s context for the scope boost, else the scope context it was given', () => {
    expect(resolveOptions(request({ scopeContextId: 'ctx-scope' }), [], false).scopeContextId).toBe('ctx-scope');
    expect(resolveOptions(request({ contextId: 'ctx-a', scopeContextId: 'ctx-scope' }), [], false).scopeContextId).toBe(
      'ctx-a',
    );
  });
});

import { describe, expect, it } from 'vitest';
import { contentAt, tokenSummary } from '../../../src/core/recall/detail.js';
import { estimateTokens } from '../../../src/core/text/index.js';

const long = 'word '.repeat(200).trim(); // 999 characters

describe('contentAt', () => {
  it('returns the stored abstract or overview when there is one', () => {
    const memory = { content: long, abstract: 'the gist', overview: 'the overview' };
    expect(contentAt('abstract', memory)).toBe('the gist');
    expect(contentAt('overview', memory)).toBe('the overview');
    expect(contentAt('full', memory)).toBe(long);
  });

  it('else cuts the content to 100 (abstract) or 500 (overview) characters and marks the cut', () => {
    const memory = { content: long, abstract: null, overview: null };
    expect(contentAt('abstract', memory)).toBe(`${long.slice(0, 100)}...`);
    expect(contentAt('overview', memory)).toBe(`${long.slice(0, 500)}...`);
  });

  it('leaves content that fits as it is', () => {
    expect(contentAt('abstract', { content: 'short', abstract: null, overview: '' })).toBe('short');
    expect(contentAt('overview', { content: 'short', abstract: null, overview: '' })).toBe('short');
  });
});

describe('tokenSummary', () => {
  it('reports the tokens returned, those the full contents would cost, and the share saved', () => {
    const summary = tokenSummary(['short'], [long]);
    const returned = estimateTokens('short');
    const full = estimateTokens(long);
    expect(returned).toBeGreaterThan(0);
    expect(full).toBeGreaterThan(returned);
    expect(summary).toEqual({
      returned,
      full_would_be: full,
      savings_percent: Math.round(((full - returned) / full) * 1000) / 10,
    });
  });

  it('saves nothing when the full contents were returned, and never reports negative savings', () => {
    expect(tokenSummary([long], [long]).savings_percent).toBe(0);
    expect(tokenSummary([long], ['short']).savings_percent).toBe(0);
    expect(tokenSummary([], [])).toEqual({ returned: 0, full_would_be: 0, savings_percent: 0 });
  });
});

import { describe, expect, it } from 'vitest';
import { derivationsOf } from '../../src/core/text/derivations.js';

describe('derivationsOf', () => {
  it('relates a noun and its verb where the Porter stemmer does not', () => {
    expect(derivationsOf('decisions')).toContain('decide');
    expect(derivationsOf('decided')).toContain('decision');
    expect(derivationsOf('deploy')).toContain('deployment');
    expect(derivationsOf('deployments')).toEqual(['deploy']);
    expect(derivationsOf('description')).toContain('describe');
    expect(derivationsOf('permit')).toContain('permission');
    expect(derivationsOf('solution')).toEqual(['solve']);
    expect(derivationsOf('explain')).toContain('explanation');
  });

  it('offers nothing for a pair the stemmer relates, nor for a short word', () => {
    // "migration" and "migrate" are one stem to the index already.
    expect(derivationsOf('migration')).toEqual([]);
    expect(derivationsOf('installation')).toEqual([]);
    expect(derivationsOf('pay')).toEqual([]);
  });
});

import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { OneAtATime } from '../../src/core/one-at-a-time.js';

describe('OneAtATime', () => {
  it('runs the work of one key in arrival order, other keys beside it, and forgets a key once idle', async () => {
    const runs = new OneAtATime();
    const log: string[] = [];
    const work = (name: string, ms: number) => async () => {
      log.push(`${name} starts`);
      await sleep(ms);
      log.push(`${name} ends`);
      return name;
    };
    const all = Promise.all([
      runs.run('t1', work('a', 30)),
      runs.run('t1', work('b', 1)),
      runs.run('t2', work('c', 1)),
    ]);
    expect(runs.size).toBe(2);
    expect(await all).toEqual(['a', 'b', 'c']);
    expect(log.indexOf('b starts')).toBeGreaterThan(log.indexOf('a ends'));
    expect(log.indexOf('c ends')).toBeLessThan(log.indexOf('a ends'));
    expect(runs.size).toBe(0);
  });

  it('a failed run frees its key for the next', async () => {
    const runs = new OneAtATime();
    const failed = runs.run('t', async () => {
      throw new Error('no');
    });
    await expect(failed).rejects.toThrow('no');
    expect(await runs.run('t', async () => 'next')).toBe('next');
    expect(runs.size).toBe(0);
  });
});

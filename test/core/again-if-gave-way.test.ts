import { describe, expect, it } from 'vitest';
import { againIfGaveWay } from '../../src/core/again-if-gave-way.js';
import { AppError, GaveWayError } from '../../src/errors.js';

/** Work that fails with each of `failures` in turn, then answers 'done'; counts its runs. */
function scripted(failures: unknown[]) {
  const work = async () => {
    work.runs += 1;
    const failure = failures.shift();
    if (failure !== undefined) throw failure;
    return 'done';
  };
  work.runs = 0;
  return work;
}

describe('againIfGaveWay', () => {
  it('runs the work again after the database rolled it back, and answers what the last run answered', async () => {
    const work = scripted([new GaveWayError(null), new GaveWayError(null)]);
    expect(await againIfGaveWay(work)).toBe('done');
    expect(work.runs).toBe(3);
  });

  it('gives up after the attempts given, with the last refusal', async () => {
    const last = new GaveWayError('third');
    const work = scripted([new GaveWayError('first'), new GaveWayError('second'), last]);
    await expect(againIfGaveWay(work, 3)).rejects.toBe(last);
    expect(work.runs).toBe(3);
  });

  it('never runs again after any other error, a conflict of another kind included', async () => {
    const taken = new AppError('conflict', 'the id is taken');
    const work = scripted([taken]);
    await expect(againIfGaveWay(work)).rejects.toBe(taken);
    expect(work.runs).toBe(1);
  });
});

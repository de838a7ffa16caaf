import { describe, expect, it } from 'vitest';
import { TableGrowth } from '../../src/storage/postgres/table-growth.js';

describe('TableGrowth', () => {
  it('runs once the rows reach the minimum, then each time they reach what the tables held at the last run', async () => {
    const runs: number[] = [];
    let written = 0;
    const growth = new TableGrowth(100, async () => {
      runs.push(written);
      return null;
    });
    const write = async (count: number) => {
      written += count;
      growth.noteRowsAdded(count);
      await growth.settle();
    };
    for (let i = 0; i < 10; i++) await write(40);
    // At 120 (the minimum), then 240 (120 more), then 480 would be next: 400 written is not there yet.
    expect(runs).toEqual([120, 240]);
  });

  it('takes the rows the work counted, and one run at a time', async () => {
    let release: () => void = () => {};
    let runs = 0;
    const growth = new TableGrowth(10, async () => {
      runs++;
      await new Promise<void>((resolve) => (release = resolve));
      return 1_000;
    });
    growth.noteRowsAdded(10);
    growth.noteRowsAdded(500); // while the first run is in progress: not a second one
    expect(runs).toBe(1);
    release();
    await growth.settle();
    // The tables held 1,000: the 500 counted during the run are not enough for the next.
    growth.noteRowsAdded(400);
    expect(runs).toBe(1);
    growth.noteRowsAdded(100);
    expect(runs).toBe(2);
    release();
    await growth.settle();
  });

  it('counts failing work as a run, so that it is not retried at every write', async () => {
    let runs = 0;
    const growth = new TableGrowth(10, async () => {
      runs++;
      throw new Error('no privilege');
    });
    growth.noteRowsAdded(10);
    await growth.settle();
    growth.noteRowsAdded(5);
    expect(runs).toBe(1);
    growth.noteRowsAdded(5);
    await growth.settle();
    expect(runs).toBe(2);
  });
});

import { afterEach, describe, expect, it, vi } from 'vitest';
import { ForegroundActivity } from '../../src/tasks/foreground.js';

const settled = () => new Promise((resolve) => setImmediate(resolve));

describe('background work gives way to client requests', () => {
  afterEach(() => vi.useRealTimers());

  it('waits for the last request in flight to end, then resumes every waiter', async () => {
    const foreground = new ForegroundActivity();
    foreground.begin();
    foreground.begin();
    const resumed: string[] = [];
    void foreground.quiet(60_000).then(() => resumed.push('a'));
    void foreground.quiet(60_000).then(() => resumed.push('b'));
    foreground.end();
    await settled();
    expect(resumed).toEqual([]);
    foreground.end();
    await settled();
    expect(resumed).toEqual(['a', 'b']);
  });

  it('is delayed under sustained load, never starved', async () => {
    vi.useFakeTimers();
    const foreground = new ForegroundActivity();
    foreground.begin();
    let resumed = false;
    void foreground.quiet(1_000).then(() => (resumed = true));
    let found: boolean | undefined;
    void foreground.quiet(1_000).then((gap) => (found = gap));
    await vi.advanceTimersByTimeAsync(999);
    expect(resumed).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(resumed).toBe(true);
    // It gave up waiting: no gap was found.
    expect(found).toBe(false);
    // A later end resumes nobody twice and never goes below zero.
    foreground.end();
    foreground.end();
    await expect(foreground.quiet(1_000)).resolves.toBe(true);
  });

  it('holds a background step while a request is in flight, for at most 50 ms or the foreground wait if shorter', async () => {
    vi.useFakeTimers();
    const foreground = new ForegroundActivity();
    foreground.begin();
    const steps: string[] = [];
    void foreground.giveWay(1_000).then(() => steps.push('bounded'));
    void foreground.giveWay(20).then(() => steps.push('shorter'));
    await vi.advanceTimersByTimeAsync(19);
    expect(steps).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(steps).toEqual(['shorter']);
    await vi.advanceTimersByTimeAsync(29);
    expect(steps).toEqual(['shorter']);
    await vi.advanceTimersByTimeAsync(1);
    expect(steps).toEqual(['shorter', 'bounded']);
    // The request's end lets a waiting step go at once.
    void foreground.giveWay(1_000).then(() => steps.push('after the request'));
    await vi.advanceTimersByTimeAsync(0);
    foreground.end();
    await vi.advanceTimersByTimeAsync(0);
    expect(steps).toEqual(['shorter', 'bounded', 'after the request']);
  });

  it('never holds a background step with a foreground wait of 0, but lets the event loop turn first', async () => {
    const foreground = new ForegroundActivity();
    foreground.begin();
    // Queued before the step gives way: the turn serves it (a request's socket read, say) before the step goes on.
    let served = false;
    setImmediate(() => (served = true));
    await foreground.giveWay(0);
    expect(served).toBe(true);
  });

  it('tells a gap between calls from an idle server', () => {
    vi.useFakeTimers();
    const foreground = new ForegroundActivity();
    expect(foreground.servedWithin(1_000)).toBe(false);
    foreground.begin();
    expect(foreground.servedWithin(1_000)).toBe(true);
    foreground.end();
    vi.advanceTimersByTime(999);
    expect(foreground.servedWithin(1_000)).toBe(true);
    vi.advanceTimersByTime(1);
    expect(foreground.servedWithin(1_000)).toBe(false);
  });
});

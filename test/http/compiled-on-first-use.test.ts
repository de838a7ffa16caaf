import { describe, expect, it } from 'vitest';
import { compileWhatIsLeft, keepForLater, onFirstUse } from '../../src/http/compiled-on-first-use.js';

/** A compile that counts its runs. */
function counted<T>(value: T): { compile: () => T; runs: () => number } {
  let runs = 0;
  return {
    compile: () => {
      runs++;
      return value;
    },
    runs: () => runs,
  };
}

// The order matters: `keepForLater` holds for the rest of this file's process.
describe('schemas compiled on first use', () => {
  it('compiles on the first call only, and keeps nothing for later unless asked', async () => {
    const schema = counted('check');
    const get = onFirstUse(schema.compile);
    expect(schema.runs()).toBe(0);
    expect(await compileWhatIsLeft()).toBe(0);
    expect(schema.runs()).toBe(0);
    expect(get()).toBe('check');
    expect(get()).toBe('check');
    expect(schema.runs()).toBe(1);
  });

  it('once asked, compiles what no call has needed yet, each once, and leaves a failing one to its first call', async () => {
    keepForLater();
    const waiting = counted('waiting');
    const used = counted('used');
    const getWaiting = onFirstUse(waiting.compile);
    const getUsed = onFirstUse(used.compile);
    const getFailing = onFirstUse<string>(() => {
      throw new Error('this schema cannot be compiled');
    });
    expect(getUsed()).toBe('used');
    expect(await compileWhatIsLeft()).toBe(1);
    expect(waiting.runs()).toBe(1);
    expect(getWaiting()).toBe('waiting');
    expect(getUsed()).toBe('used');
    expect([waiting.runs(), used.runs()]).toEqual([1, 1]);
    expect(() => getFailing()).toThrow('this schema cannot be compiled');
    // Nothing left: a second pass compiles nothing.
    expect(await compileWhatIsLeft()).toBe(0);
  });
});

import { describe, expect, it } from 'vitest';
import {
  baseUrl,
  ConfigError,
  flag,
  integer,
  keyValues,
  list,
  oneOf,
  ratio,
  readSettings,
  setting,
  text,
} from '../../src/config/setting.js';

/** The ConfigError message reading `value` for the setting throws. */
function refusal(read: (env: Record<string, string>) => unknown, name: string, value: string): string {
  try {
    read({ [name]: value });
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error(`${name}=${value} was accepted`);
}

describe('declared settings', () => {
  it('integer: its default when unset or blank, the value within bounds, a message with the bounds otherwise', () => {
    const port = integer({ name: 'X_PORT', default: 80, min: 1, max: 100, meaning: 'a port' });
    expect(port.read({})).toBe(80);
    expect(port.read({ X_PORT: '   ' })).toBe(80);
    expect(port.read({ X_PORT: ' 100 ' })).toBe(100);
    expect(refusal(port.read, 'X_PORT', '101')).toBe("X_PORT must be an integer between 1 and 100, got '101'");
    expect(refusal(port.read, 'X_PORT', '2.5')).toBe("X_PORT must be an integer between 1 and 100, got '2.5'");
    expect(refusal(port.read, 'X_PORT', 'eighty')).toBe("X_PORT must be an integer between 1 and 100, got 'eighty'");
    expect(port).toMatchObject({ accepts: '1 to 100', shownDefault: '80', meaning: 'a port' });
  });

  it('integer without a default reads as undefined when unset', () => {
    const width = integer({ name: 'X_WIDTH', min: 8, max: 16, meaning: 'a width' });
    expect(width.read({})).toBeUndefined();
    expect(width.shownDefault).toBe('');
    expect(refusal(width.read, 'X_WIDTH', '7')).toBe("X_WIDTH must be an integer between 8 and 16, got '7'");
  });

  it('shows a _BYTES setting in KiB, MiB or GiB where that is exact', () => {
    expect(integer({ name: 'X_BYTES', default: 10 * 1024 ** 2, min: 1, max: 1024 ** 3, meaning: '' })).toMatchObject({
      shownDefault: '10 MiB',
      accepts: '1 to 1 GiB',
    });
    expect(integer({ name: 'X_BYTES', default: 1536, min: 1024, max: 3 * 1024 ** 3, meaning: '' })).toMatchObject({
      shownDefault: '1536',
      accepts: '1 KiB to 3 GiB',
    });
    expect(integer({ name: 'X_COUNT', default: 1024, min: 0, max: 2048, meaning: '' })).toMatchObject({
      shownDefault: '1024',
      accepts: '0 to 2048',
    });
  });

  it('ratio: 0 to 1 only', () => {
    const share = ratio({ name: 'X_SHARE', default: 1, meaning: '' });
    expect(share.read({ X_SHARE: '0.5' })).toBe(0.5);
    for (const raw of ['1.01', '-1', 'half'])
      expect(refusal(share.read, 'X_SHARE', raw)).toBe(`X_SHARE must be a ratio between 0 and 1, got '${raw}'`);
  });

  it('oneOf: a value in any case, read in lower case; the refusal names the choices', () => {
    const engine = oneOf({ name: 'X_ENGINE', values: ['sqlite', 'postgres'] as const, default: 'sqlite', meaning: '' });
    expect(engine.read({ X_ENGINE: 'PostGres' })).toBe('postgres');
    expect(refusal(engine.read, 'X_ENGINE', 'MySQL')).toBe("X_ENGINE must be one of sqlite, postgres, got 'mysql'");
    expect(engine).toMatchObject({ accepts: '`sqlite`, `postgres`', shownDefault: '`sqlite`' });
  });

  it('flag: the four spellings of each answer, nothing else', () => {
    const on = flag({ name: 'X_ON', default: false, meaning: '' });
    expect(['true', '1', 'yes', 'ON'].map((raw) => on.read({ X_ON: raw }))).toEqual([true, true, true, true]);
    expect(['false', '0', 'no', 'Off'].map((raw) => on.read({ X_ON: raw }))).toEqual([false, false, false, false]);
    expect(refusal(on.read, 'X_ON', 'enabled')).toBe("X_ON must be true or false, got 'enabled'");
  });

  it('text, base URL and list keep what is given (a base URL without its trailing slashes)', () => {
    expect(text({ name: 'X_T', default: 'a', meaning: '' }).read({ X_T: ' b ' })).toBe('b');
    expect(baseUrl({ name: 'X_URL', meaning: '' }).read({ X_URL: 'http://h/v1//' })).toBe('http://h/v1');
    expect(list({ name: 'X_L', accepts: 'names', meaning: '' }).read({ X_L: 'a, ,b,' })).toEqual(['a', 'b']);
  });

  it('keyValues: URL-decoded pairs, and a refusal naming the bad item', () => {
    const pairs = keyValues({ name: 'X_KV', meaning: '' });
    expect(pairs.read({ X_KV: 'a=1, b=x%20y' })).toEqual({ a: '1', b: 'x y' });
    expect(refusal(pairs.read, 'X_KV', 'a=1,=2')).toBe("X_KV must be key=value pairs separated by commas, got '=2'");
  });

  it('a derived default is worked out from the environment, and shown in its own words', () => {
    const mode = oneOf({
      name: 'X_MODE',
      values: ['sync', 'delayed'] as const,
      default: { from: (env) => (env.X_SHARED ? 'sync' : 'delayed'), shown: 'sync when shared' },
      meaning: '',
    });
    expect(mode.read({})).toBe('delayed');
    expect(mode.read({ X_SHARED: '1' })).toBe('sync');
    expect(mode.read({ X_SHARED: '1', X_MODE: 'delayed' })).toBe('delayed');
    expect(mode.shownDefault).toBe('sync when shared');
  });

  it('a custom kind gets the variable name in its parser', () => {
    const even = setting({
      name: 'X_EVEN',
      accepts: 'even numbers',
      meaning: '',
      parse: (raw, name) => {
        if (Number(raw) % 2 !== 0) throw new ConfigError(`${name} must be even`);
        return Number(raw);
      },
    });
    expect(even.isSet({ X_EVEN: ' ' })).toBe(false);
    expect(even.read({ X_EVEN: '4' })).toBe(4);
    expect(refusal(even.read, 'X_EVEN', '3')).toBe('X_EVEN must be even');
  });

  it('readSettings reads a record in its order, so the first wrong variable is the one refused', () => {
    const record = {
      a: integer({ name: 'X_A', default: 1, min: 0, max: 9, meaning: '' }),
      b: flag({ name: 'X_B', default: true, meaning: '' }),
    };
    expect(readSettings(record, { X_B: 'no' })).toEqual({ a: 1, b: false });
    expect(() => readSettings(record, { X_A: '10', X_B: 'maybe' })).toThrow(
      "X_A must be an integer between 0 and 9, got '10'",
    );
  });
});

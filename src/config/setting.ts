/**
 * How a setting is declared: once, with its variable's name, what it accepts, its default and what it means. The
 * parser (`read`), its refusals and the README's tables (`npm run docs:settings`) all come from the declaration.
 *
 * Written here rather than taken from a schema library: the variables accept what they always have (`yes`/`on`
 * for true, any form `Number()` reads, choices in any case) and refuse with messages that name the variable and
 * its bounds; TypeBox's conversion and the env libraries accept other spellings and word their errors otherwise.
 */

/** Environment variables by name, as `process.env` holds them. */
export type Env = Record<string, string | undefined>;

/** A setting that cannot be used as given: the process stops at start with this message. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** A default that depends on other settings (or the machine), with the words the README shows for it. */
export interface DerivedDefault<T> {
  from: (env: Env) => T;
  shown: string;
}

/** One environment variable. */
export interface Setting<T> {
  readonly name: string;
  /** What it accepts, as the README says it (`1 to 64`, `` `sqlite`, `postgres` ``, URL). */
  readonly accepts: string;
  /** Its default as the README shows it; empty when it has none (its meaning says what unset does). */
  readonly shownDefault: string;
  /** One line: what it changes. */
  readonly meaning: string;
  /** Whether `env` gives it a value (an empty or blank one counts as unset). */
  isSet(env: Env): boolean;
  /** Its value in `env`, parsed and checked (ConfigError), else its default. */
  read(env: Env): T;
}

interface Declaration<T> {
  name: string;
  meaning: string;
  default?: T | DerivedDefault<T>;
  /** How the README shows the default, where the value alone would not say it (or where there is none). */
  shownDefault?: string;
}

/** The value type of a declaration: without a default, unset reads as undefined. */
type ValueOf<T, D> = D extends { default: unknown } ? T : T | undefined;

/** The variable's value, trimmed; an empty or blank one is unset. */
function given(env: Env, name: string): string | undefined {
  const value = env[name]?.trim();
  return value === undefined || value === '' ? undefined : value;
}

const isDerived = <T>(value: T | DerivedDefault<T>): value is DerivedDefault<T> =>
  typeof value === 'object' && value !== null && 'from' in value && typeof value.from === 'function';

/** What makes a kind of setting: what it accepts, how a given value is parsed (ConfigError when it is wrong) and shown. */
interface Kind<T> {
  accepts: string;
  parse: (raw: string, name: string) => T;
  show?: (value: T) => string;
}

/** A setting of any kind. */
export function setting<T, const D extends Declaration<T>>(declaration: D & Kind<T>): Setting<ValueOf<T, D>> {
  const { name, meaning, accepts, parse } = declaration;
  const fallback = declaration.default;
  const show = declaration.show ?? ((value: T) => `\`${String(value)}\``);
  const shownDefault =
    declaration.shownDefault ?? (fallback === undefined ? '' : isDerived(fallback) ? fallback.shown : show(fallback));
  return {
    name,
    accepts,
    shownDefault,
    meaning,
    isSet: (env) => given(env, name) !== undefined,
    read(env) {
      const raw = given(env, name);
      if (raw !== undefined) return parse(raw, name);
      return (fallback !== undefined && isDerived(fallback) ? fallback.from(env) : fallback) as ValueOf<T, D>;
    },
  };
}

const KIB = 1024;
const UNITS = ['GiB', 'MiB', 'KiB'] as const;

/** A count as the README shows it: a `…_BYTES` setting's value in KiB, MiB or GiB where that is exact. */
function shownCount(name: string, value: number): string {
  if (name.endsWith('_BYTES') && value > 0) {
    for (const [index, unit] of UNITS.entries()) {
      const size = KIB ** (UNITS.length - index);
      if (value % size === 0) return `${value / size} ${unit}`;
    }
  }
  return String(value);
}

/** An integer from `min` to `max`, read as `Number()` reads it (so `1e3` and `0x10` too). */
export function integer<D extends Declaration<number> & { min: number; max: number }>(
  declaration: D,
): Setting<ValueOf<number, D>> {
  const { name, min, max } = declaration;
  return setting<number, D>({
    ...declaration,
    accepts: `${shownCount(name, min)} to ${shownCount(name, max)}`,
    show: (value) => shownCount(name, value),
    parse(raw) {
      const value = Number(raw);
      if (!Number.isInteger(value) || value < min || value > max)
        throw new ConfigError(`${name} must be an integer between ${min} and ${max}, got '${raw}'`);
      return value;
    },
  });
}

/** A number from 0 to 1. */
export function ratio<D extends Declaration<number>>(declaration: D): Setting<ValueOf<number, D>> {
  return setting<number, D>({
    ...declaration,
    accepts: '0 to 1',
    show: String,
    parse(raw) {
      const value = Number(raw);
      if (!(value >= 0 && value <= 1))
        throw new ConfigError(`${declaration.name} must be a ratio between 0 and 1, got '${raw}'`);
      return value;
    },
  });
}

/** One of `values`, in any case. */
export function oneOf<const V extends string, D extends Declaration<V>>(
  declaration: D & { values: readonly V[] },
): Setting<ValueOf<V, D>> {
  const { name, values } = declaration;
  return setting<V, D>({
    ...declaration,
    accepts: values.map((value) => `\`${value}\``).join(', '),
    parse(raw) {
      const value = raw.toLowerCase();
      if (!(values as readonly string[]).includes(value))
        throw new ConfigError(`${name} must be one of ${values.join(', ')}, got '${value}'`);
      return value as V;
    },
  });
}

const TRUE = ['true', '1', 'yes', 'on'];
const FALSE = ['false', '0', 'no', 'off'];

/** true (`true`, `1`, `yes`, `on`) or false (`false`, `0`, `no`, `off`), in any case. */
export function flag<D extends Declaration<boolean>>(declaration: D): Setting<ValueOf<boolean, D>> {
  return setting<boolean, D>({
    ...declaration,
    accepts: '`true` or `false`',
    parse(raw) {
      const value = raw.toLowerCase();
      if (TRUE.includes(value)) return true;
      if (FALSE.includes(value)) return false;
      throw new ConfigError(`${declaration.name} must be true or false, got '${value}'`);
    },
  });
}

/** Any text, as given (trimmed); `accepts` says what it should be (default: text). */
export function text<D extends Declaration<string> & { accepts?: string }>(
  declaration: D,
): Setting<ValueOf<string, D>> {
  return setting<string, D>({ ...declaration, accepts: declaration.accepts ?? 'text', parse: (raw) => raw });
}

/** A base URL, without the slashes it may end with (a path is appended to it). */
export function baseUrl<D extends Declaration<string>>(declaration: D): Setting<ValueOf<string, D>> {
  return setting<string, D>({ ...declaration, accepts: 'URL', parse: (raw) => raw.replace(/\/+$/, '') });
}

/** The items of a comma-separated value, trimmed, empty ones left out. */
export const listItems = (raw: string): string[] =>
  raw
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');

/** Comma-separated names. */
export function list<D extends Declaration<string[]>>(
  declaration: D & { accepts: string },
): Setting<ValueOf<string[], D>> {
  return setting<string[], D>({
    ...declaration,
    parse: listItems,
    show: (items) => items.map((item) => `\`${item}\``).join(', '),
  });
}

/** `k1=v1,k2=v2`, the values URL-encoded (the OTEL_* convention). */
export function keyValues<D extends Declaration<Record<string, string>>>(
  declaration: D,
): Setting<ValueOf<Record<string, string>, D>> {
  return setting<Record<string, string>, D>({
    ...declaration,
    accepts: '`key=value` pairs, comma-separated',
    parse(raw) {
      const pairs: Record<string, string> = {};
      for (const item of listItems(raw)) {
        const at = item.indexOf('=');
        if (at <= 0)
          throw new ConfigError(`${declaration.name} must be key=value pairs separated by commas, got '${item}'`);
        pairs[decodeURIComponent(item.slice(0, at).trim())] = decodeURIComponent(item.slice(at + 1).trim());
      }
      return pairs;
    },
  });
}

/** A record of settings, keyed by the field each one fills. */
export type Settings = Record<string, Setting<unknown>>;

/** The values of a record of settings, under the same keys. */
export type SettingValues<S extends Settings> = { [K in keyof S]: S[K] extends Setting<infer T> ? T : never };

/** Reads every setting of the record, in its order (the first wrong one is refused). */
export function readSettings<S extends Settings>(settings: S, env: Env): SettingValues<S> {
  return Object.fromEntries(Object.entries(settings).map(([key, one]) => [key, one.read(env)])) as SettingValues<S>;
}

/** Settings the README lists together under one title. */
export interface SettingGroup {
  title: string;
  settings: readonly Setting<unknown>[];
}

/** How values read on the page. */

const relative = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });
const UNITS: Array<[Intl.RelativeTimeFormatUnit, number]> = [
  ['year', 365 * 86_400_000],
  ['month', 30 * 86_400_000],
  ['day', 86_400_000],
  ['hour', 3_600_000],
  ['minute', 60_000],
  ['second', 1000],
];

/** "3 minutes ago", "in 2 hours". */
export function ago(iso: string | null | undefined, now = Date.now()): string {
  if (!iso) return '—';
  const delta = Date.parse(iso) - now;
  for (const [unit, ms] of UNITS)
    if (Math.abs(delta) >= ms || unit === 'second') return relative.format(Math.round(delta / ms), unit);
  return iso;
}

/** Date and time in the reader's locale. */
export const when = (iso: string | null | undefined): string => (iso ? new Date(iso).toLocaleString() : '—');

/** A score to three decimals. */
export const score = (value: number | null | undefined): string =>
  value === null || value === undefined ? '—' : value.toFixed(3);

/** A whole number with separators. */
export const count = (value: number): string => value.toLocaleString();

/** "4:05" from seconds; "expired" at or below zero. */
export function countdown(seconds: number): string {
  if (seconds <= 0) return 'expired';
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = Math.floor(seconds % 60);
  const mm = h > 0 ? String(m).padStart(2, '0') : String(m);
  return `${h > 0 ? `${h}:` : ''}${mm}:${String(s).padStart(2, '0')}`;
}

/** A JSON value as readable text. */
export const json = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value, null, 2));

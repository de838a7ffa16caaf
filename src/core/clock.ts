/** The time source of the core. Tests drive expiry and decay with a manual clock instead of sleeping. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

export const isoNow = (clock: Clock): string => clock.now().toISOString();

export const addMs = (iso: string, ms: number): string => new Date(Date.parse(iso) + ms).toISOString();

/** Seconds from `iso` to `now` (0 when `iso` is later). */
export const secondsSince = (now: Date, iso: string): number => Math.max(0, (now.getTime() - Date.parse(iso)) / 1000);

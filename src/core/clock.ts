/** The time source of the core. Tests drive expiry and decay with a manual clock instead of sleeping. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

export const isoNow = (clock: Clock): string => clock.now().toISOString();

export const addMs = (iso: string, ms: number): string => new Date(Date.parse(iso) + ms).toISOString();

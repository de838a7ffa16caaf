import { InvalidArgumentError } from 'commander';

/** For an option given several times (`--tag a --tag b`): every value, in order. */
export const repeatable = (value: string, previous: string[] | undefined): string[] => [...(previous ?? []), value];

export function number(value: string): number {
  const parsed = Number(value);
  if (value.trim() === '' || !Number.isFinite(parsed)) throw new InvalidArgumentError('a number, please.');
  return parsed;
}

export function positiveNumber(value: string): number {
  const parsed = number(value);
  if (parsed <= 0) throw new InvalidArgumentError('a positive number, please.');
  return parsed;
}

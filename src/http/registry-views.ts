import type { Ranked } from '../core/registries/scopes.js';
import { invalid } from '../errors.js';

/** Response shapes shared by the scoped registries (skills, MCP servers). */

/** A listed entry, as `shown`, with whether precedence hides it. */
export const listedView = <T extends { id: string }, V extends object>({ shadowedBy }: Ranked<T>, shown: V) => ({
  ...shown,
  shadowed: shadowedBy !== null,
  shadowed_by: shadowedBy?.id ?? null,
});

/** `name` and `names` of a resolve request, in order, once each; at least one. */
export function requestedNames(body: { name?: string | undefined; names?: string[] | undefined }): string[] {
  const names = [...new Set([...(body.name === undefined ? [] : [body.name]), ...(body.names ?? [])])];
  if (names.length === 0) throw invalid('/names', 'give `name` or `names`');
  return names;
}

/** The winner of each name asked, in that order, and the names nothing answers. */
export function resolvedView<T, V>(
  names: readonly string[],
  winners: ReadonlyMap<string, T>,
  view: (entry: T) => V,
): { first: V | null; found: V[]; not_found: string[] } {
  const found = names.flatMap((name) => (winners.has(name) ? [view(winners.get(name)!)] : []));
  const first = winners.get(names[0]!);
  return {
    first: first === undefined ? null : view(first),
    found,
    not_found: names.filter((name) => !winners.has(name)),
  };
}

import {
  Type,
  type TArray,
  type TNull,
  type TObject,
  type TProperties,
  type TSchema,
  type TString,
  type TUnion,
} from 'typebox';
import { SourceModeField } from '../../schemas/registry.js';
import { Identifier, Nullable, paging, StringEnum, WorkspaceIdField } from './common.js';

export { ScopedFields } from '../../schemas/registry.js';

/** Shared by the registries (applications, skills, MCP servers, data providers). */

export const Paging = paging(200, 50);

export const UserIdField = Type.Optional(
  Type.String({
    minLength: 1,
    maxLength: 256,
    description: 'the user whose user- and local-scoped entries apply (a claim that selects entries, not a credential)',
  }),
);

export const SourceMode = SourceModeField;

export const ScopedListQuery = <S extends readonly string[]>(scopes: S) =>
  Type.Object(
    {
      workspace_id: WorkspaceIdField,
      user_id: UserIdField,
      scope: Type.Optional(
        StringEnum(scopes, { description: 'only entries of this scope (precedence is decided first)' }),
      ),
      include_shadowed: Type.Boolean({ default: false, description: 'also list entries a higher scope overrides' }),
      ...Paging,
    },
    { additionalProperties: false },
  );

/** An entry in a listing, with whether precedence hides it. */
export const Listed = <P extends TProperties>(entry: TObject<P>) =>
  Type.Object({
    ...entry.properties,
    shadowed: Type.Boolean({ description: 'a higher scope has an entry of the same name' }),
    shadowed_by: Nullable(Type.String({ description: 'id of that entry' })),
  });

export const ResolveBody = <T extends TSchema>(nameField: T) =>
  Type.Object(
    {
      name: Type.Optional(nameField),
      names: Type.Optional(Type.Array(nameField, { minItems: 1, maxItems: 200 })),
      workspace_id: WorkspaceIdField,
      user_id: UserIdField,
    },
    { additionalProperties: false, description: 'give `name`, `names`, or both' },
  );

/**
 * What a resolve answers: the winner of the first name asked (`one`, null if none), the winner of each name found
 * in the order asked (`many`), and the names nothing answers.
 */
export const Resolved = <One extends string, Many extends string, T extends TSchema>(
  one: One,
  many: Many,
  entry: T,
  found: string,
) =>
  Type.Object({
    [one]: Nullable(entry),
    [many]: Type.Array(entry, { description: found }),
    not_found: Type.Array(Type.String()),
  } as { [K in One]: TUnion<[T, TNull]> } & { [K in Many]: TArray<T> } & { not_found: TArray<TString> });

export const SyncTimes = {
  since: Type.Optional(
    Nullable(
      Type.String({
        format: 'date-time',
        description: '`synced_at` of your last sync whose actions you completed; absent or null: first sync',
      }),
    ),
  ),
};

/** A registry entry's name is an identifier: it is a path segment of the entry's routes. */
export const EntryName = Identifier('the entry name');

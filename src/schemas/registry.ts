import { Type } from 'typebox';
import { Nullable, StringEnum } from './primitives.js';

/** Where the canonical copy of a registry entry (skill, MCP server) lives: the server, both sides, or the client's filesystem. */
export const SOURCE_MODES = ['server', 'mirrored', 'filesystem'] as const;
export type SourceMode = (typeof SOURCE_MODES)[number];

export const SourceModeField = StringEnum(SOURCE_MODES, {
  description:
    'where the canonical copy lives; in a two-way sync conflict the server (`server`), the client (`filesystem`) or the later change (`mirrored`) wins',
});

/** Scope and owners of a scoped entry (skill, MCP server): its scope, and that scope's owners (null above it). */
export const ScopedFields = <S extends readonly string[]>(scopes: S) => ({
  scope: StringEnum(scopes),
  workspace_id: Nullable(Type.String({ description: 'null above workspace scope' })),
  user_id: Nullable(Type.String({ description: 'set for user-owned scopes' })),
});

import { Type, type Static } from 'typebox';
import { JsonObject, Nullable, Timestamp } from './primitives.js';
import { ScopedFields, SourceModeField } from './registry.js';

/** Skill scopes, highest precedence first: a user's own skills, the workspace's, the tenant's, then global ones. */
export const SKILL_SCOPE_NAMES = ['user', 'workspace', 'tenant', 'global'] as const;
export type SkillScope = (typeof SKILL_SCOPE_NAMES)[number];

/**
 * A skill, declared once: response schema and stored record. Its `manifest` is not a column: it is the content of
 * its SKILL.md file (storage/database.ts derives the skills table without it).
 */
export const SkillRecord = Type.Object(
  {
    id: Type.String({ description: 'skill_…' }),
    tenant_id: Type.String(),
    name: Type.String(),
    version: Nullable(Type.String()),
    description: Nullable(Type.String()),
    ...ScopedFields(SKILL_SCOPE_NAMES),
    source_mode: SourceModeField,
    manifest: Type.String({ description: 'the SKILL.md content' }),
    metadata: JsonObject,
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { title: 'Skill' },
);
export type Skill = Static<typeof SkillRecord>;

/** A file of a skill without its content, declared once: response schema and stored record. */
export const SkillFileInfoRecord = Type.Object(
  {
    path: Type.String({ description: 'relative, `/`-separated' }),
    size: Type.Integer(),
    sha256: Type.String({ description: 'hex SHA-256 of the content' }),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { title: 'SkillFileInfo' },
);
export type SkillFileInfo = Static<typeof SkillFileInfoRecord>;

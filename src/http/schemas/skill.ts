import { Type } from 'typebox';
import { SKILL_NAME_PATTERN } from '../../core/skills/manifest.js';
import { SKILL_SCOPE_NAMES, SkillFileInfoRecord, SkillRecord } from '../../schemas/skill.js';
import { JsonObject, StringEnum, WorkspaceIdField } from './common.js';
import { Listed, ResolveBody, Resolved, ScopedListQuery, SourceMode, SyncTimes, UserIdField } from './registry.js';

export { SKILL_SCOPE_NAMES };

const SkillName = Type.String({ pattern: SKILL_NAME_PATTERN, description: 'also the folder name in a bundle' });
const Manifest = Type.String({
  minLength: 1,
  maxLength: 1_000_000,
  description:
    'the whole SKILL.md: YAML front matter (`name`, `description`, `version`, …) between `---` lines, then the instructions',
});
const FilePath = Type.String({
  minLength: 1,
  maxLength: 512,
  description: 'relative, `/`-separated; no `..`, `.` or empty segments, no leading `/`',
});
const Encoding = StringEnum(['utf8', 'base64'] as const, {
  description: '`base64` for binary content; default `utf8`',
});
const Sha256 = Type.String({ pattern: '^[0-9a-fA-F]{64}$', description: 'hex SHA-256 of the content' });

/** The one declaration of a skill and of a file's details: src/schemas/skill.ts. */
export const Skill = SkillRecord;
export const SkillFileInfo = SkillFileInfoRecord;

export const SkillEnvelope = Type.Object({ skill: Skill });
export const SkillList = Type.Object({ skills: Type.Array(Listed(Skill)), total_count: Type.Integer() });

export const SkillFileContent = Type.Object({
  ...SkillFileInfo.properties,
  encoding: Encoding,
  content: Type.String({ description: 'text when the file is UTF-8, base64 otherwise' }),
});

const FileInput = Type.Object(
  { path: FilePath, content: Type.String(), encoding: Type.Optional(Encoding) },
  { additionalProperties: false },
);

const Text = (description: string) => Type.Optional(Type.String({ minLength: 1, maxLength: 2000, description }));

export const CreateSkillBody = Type.Object(
  {
    scope: Type.Optional(
      StringEnum(SKILL_SCOPE_NAMES, {
        default: 'workspace',
        description: 'user and tenant/global skills are tenant-level (admin key); user needs user_id',
      }),
    ),
    workspace_id: WorkspaceIdField,
    user_id: UserIdField,
    manifest: Type.Optional(Manifest),
    body: Type.Optional(
      Type.String({
        maxLength: 1_000_000,
        description: 'instead of `manifest`: the instructions; the front matter is written from the fields below',
      }),
    ),
    name: Type.Optional(SkillName),
    description: Text('with `manifest`: only when its front matter has none'),
    version: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    license: Text('with `body` only'),
    compatibility: Text('with `body` only'),
    allowed_tools: Text('with `body` only (front matter `allowed-tools`)'),
    source_mode: Type.Optional(SourceMode),
    metadata: Type.Optional(JsonObject),
    files: Type.Optional(Type.Array(FileInput, { maxItems: 1000, description: 'files besides SKILL.md' })),
  },
  { additionalProperties: false },
);

export const UpdateSkillBody = Type.Object(
  {
    manifest: Type.Optional(Manifest),
    description: Text('only when the front matter does not state it'),
    version: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    source_mode: Type.Optional(SourceMode),
    metadata: Type.Optional(JsonObject),
  },
  { additionalProperties: false, minProperties: 1 },
);

export const PutFileBody = Type.Object(
  { content: Type.String(), encoding: Type.Optional(Encoding) },
  { additionalProperties: false },
);

export const ListSkillsQuery = ScopedListQuery(SKILL_SCOPE_NAMES);
export const ResolveSkillsBody = ResolveBody(SkillName);
export const ResolvedSkills = Resolved('skill', 'skills', Skill, 'the winner of each name found, in the order asked');

export const SkillParams = Type.Object({ skill_id: Type.String({ minLength: 1, maxLength: 256 }) });
export const SkillFileParams = Type.Object({
  skill_id: Type.String({ minLength: 1, maxLength: 256 }),
  '*': Type.String({ description: 'the file path; slashes may be sent as they are or encoded' }),
});

export const SyncSkillBody = Type.Object(
  {
    ...SyncTimes,
    files: Type.Array(
      Type.Object(
        {
          path: FilePath,
          sha256: Sha256,
          modified_at: Type.String({ format: 'date-time', description: 'when the file last changed on the client' }),
          content: Type.Optional(
            Type.String({ description: 'send it to upload in this call, if the server wants it' }),
          ),
          encoding: Type.Optional(Encoding),
        },
        { additionalProperties: false },
      ),
      { maxItems: 5000, description: 'every file the client has, SKILL.md included' },
    ),
  },
  { additionalProperties: false },
);

export const SkillSyncResponse = Type.Object({
  skill: Skill,
  synced_at: Type.String({
    format: 'date-time',
    description: 'send as `since` next time, once the actions below are done',
  }),
  uploaded: Type.Array(Type.String(), { description: 'stored from the content sent' }),
  upload: Type.Array(Type.String(), { description: 'the server needs these: PUT them or sync again with content' }),
  download: Type.Array(SkillFileInfo, { description: 'fetch these' }),
  delete_on_client: Type.Array(Type.String(), {
    description: 'deleted on the server since your last sync: delete them',
  }),
  deleted_on_server: Type.Array(Type.String(), { description: 'you deleted them since your last sync: deleted here' }),
  conflicts: Type.Array(Type.Object({ path: Type.String(), winner: StringEnum(['client', 'server'] as const) })),
});

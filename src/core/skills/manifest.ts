import { parseDocument, stringify } from 'yaml';
import { invalid } from '../../errors.js';

/** The record fields a SKILL.md front matter can state. */
export interface ManifestFields {
  name: string;
  description: string | null;
  version: string | null;
}

export type GivenFields = { [K in keyof ManifestFields]?: string | undefined };

/** A skill name is also its folder name in a bundle: no slashes, no leading dot. */
export const SKILL_NAME_PATTERN = '^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$';
const SKILL_NAME = new RegExp(SKILL_NAME_PATTERN);

const FRONT_MATTER = /^\uFEFF?---[ \t]*\r?\n(?:([\s\S]*?)\r?\n)?---[ \t]*(?:\r?\n|$)/;
const FIELDS = ['name', 'description', 'version'] as const;

/**
 * The front matter of a SKILL.md (the YAML between the leading `---` lines), read with the failsafe schema so that
 * scalars stay as written (`version: 1.0` is "1.0", not 1). No front matter: an empty object.
 */
export function frontMatter(manifest: string): Record<string, unknown> {
  const yaml = FRONT_MATTER.exec(manifest)?.[1];
  if (yaml === undefined) return {};
  const document = parseDocument(yaml, { schema: 'failsafe' });
  const error = document.errors[0];
  if (error) throw invalid('/manifest', `the front matter is not valid YAML: ${error.message.split('\n')[0]}`);
  const value: unknown = document.toJS();
  if (value === null || value === undefined) return {};
  if (typeof value !== 'object' || Array.isArray(value))
    throw invalid('/manifest', 'the front matter must be a YAML mapping');
  return value as Record<string, unknown>;
}

/**
 * The manifest with the description and version a request gives written over what its front matter states. The
 * request wins (a client updating a skill's description means it), and the manifest keeps saying what the record
 * says: agents read SKILL.md, not the record. The rest of the file stays as written; a field the front matter does
 * not state stays the record's alone.
 */
export function withGivenFields(manifest: string, given: Pick<GivenFields, 'description' | 'version'>): string {
  const stated = frontMatter(manifest);
  const changes = (['description', 'version'] as const).filter(
    (field) => given[field] !== undefined && stated[field] !== undefined && stated[field] !== given[field],
  );
  const match = FRONT_MATTER.exec(manifest);
  if (changes.length === 0 || !match) return manifest;
  const document = parseDocument(match[1] ?? '');
  for (const field of changes) document.set(field, given[field]);
  return `---\n${document.toString()}---\n${manifest.slice(match[0].length)}`;
}

/**
 * The record's name, description and version for a manifest. The front matter states them; a field it leaves out
 * comes from `given` (the request), then from `current` (the stored skill). A given name that contradicts the front
 * matter is refused rather than silently dropped (see `withGivenFields` for the others), and a stored skill keeps
 * its name.
 */
export function manifestFields(manifest: string, given: GivenFields, current?: ManifestFields): ManifestFields {
  const stated = frontMatter(manifest);
  const pick = (field: (typeof FIELDS)[number]): string | null => {
    const written = stated[field];
    if (written !== undefined && typeof written !== 'string')
      throw invalid('/manifest', `the front matter's '${field}' must be a string`);
    const requested = given[field];
    if (written !== undefined && requested !== undefined && written !== requested)
      throw invalid(`/${field}`, `differs from the manifest's front matter ('${written}')`);
    return written ?? requested ?? current?.[field] ?? null;
  };
  const name = pick('name');
  if (name === null) throw invalid('/name', 'is required (in the request or as `name` in the manifest front matter)');
  if (!SKILL_NAME.test(name)) throw invalid('/name', `must match ${SKILL_NAME_PATTERN}`);
  if (current && name !== current.name)
    throw invalid('/manifest', `a skill's name cannot change ('${current.name}'); create a new skill instead`);
  return { name, description: pick('description'), version: pick('version') };
}

/** A SKILL.md written from its parts: front matter of the fields given, then the body. */
export function composeManifest(fields: Record<string, string | undefined>, body: string): string {
  const stated = Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
  return `---\n${stringify(stated)}---\n\n${body}`;
}

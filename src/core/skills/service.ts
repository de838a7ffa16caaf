import { invalid, notFound } from '../../errors.js';
import { SKILL_SCOPE_NAMES } from '../../schemas/skill.js';
import {
  SKILL_MANIFEST_PATH,
  type JsonObject,
  type Skill,
  type SkillFile,
  type SkillFileInfo,
  type SkillPatch,
  type SkillScope,
  type SourceMode,
  type Storage,
} from '../../storage/types.js';
import { isoNow, type Clock } from '../clock.js';
import { newId } from '../ids.js';
import { ScopedRegistry, type RegistryDeps, type RegistryKind } from '../registries/registry.js';
import { ScopeRules, type RegistryCaller } from '../registries/scopes.js';
import { DEFAULT_TENANT } from '../workspaces/service.js';
import { checkFilePath, decodeContent, skillFile, utf8Text, type FileEncoding } from './files.js';
import { composeManifest, manifestFields, withGivenFields } from './manifest.js';
import { syncSkillFiles, type SkillSyncReport, type SkillSyncRequest } from './sync.js';

/** Skills as a scoped registry: their scopes in precedence order (src/schemas/skill.ts), and who owns the entries of each. */
const SKILLS: RegistryKind<SkillScope, Skill, SkillPatch> = {
  noun: 'skill',
  aNoun: 'a skill',
  scopes: new ScopeRules(SKILL_SCOPE_NAMES, { user: 'user', workspace: 'workspace', tenant: 'none', global: 'none' }),
  store: (storage) => storage.skills,
};

export interface FileInput {
  path: string;
  content: string;
  encoding?: FileEncoding | undefined;
}

export interface CreateSkillInput {
  scope?: SkillScope | undefined;
  /** The whole SKILL.md; or `body` and the fields its front matter is written from. */
  manifest?: string | undefined;
  body?: string | undefined;
  name?: string | undefined;
  description?: string | undefined;
  version?: string | undefined;
  license?: string | undefined;
  compatibility?: string | undefined;
  allowed_tools?: string | undefined;
  source_mode?: SourceMode | undefined;
  metadata?: JsonObject | undefined;
  files?: FileInput[] | undefined;
}

export interface UpdateSkillInput {
  manifest?: string | undefined;
  description?: string | undefined;
  version?: string | undefined;
  source_mode?: SourceMode | undefined;
  metadata?: JsonObject | undefined;
}

interface SkillDeps extends RegistryDeps {
  clock: Clock;
}

/**
 * Skills: a scoped registry (ScopedRegistry: list, resolve, get, delete by precedence) of SKILL.md manifests, each
 * with its files, bundled and synced with clients.
 */
export class SkillService extends ScopedRegistry<SkillScope, Skill, SkillPatch> {
  constructor(protected override readonly deps: SkillDeps) {
    super(SKILLS, deps);
  }

  async create(caller: RegistryCaller, input: CreateSkillInput): Promise<Skill> {
    const { storage, workspaces, clock } = this.deps;
    await workspaces.get(caller.workspaceId);
    const owner = this.kind.scopes.ownerFor(input.scope ?? 'workspace', caller);
    const manifest = withGivenFields(manifestOf(input), input);
    const fields = manifestFields(manifest, input);
    const now = isoNow(clock);
    const files = [
      skillFile(SKILL_MANIFEST_PATH, Buffer.from(manifest, 'utf8'), now),
      ...initialFiles(input.files ?? [], now),
    ];
    const skill = {
      id: newId('skill'),
      tenant_id: DEFAULT_TENANT,
      ...owner,
      ...fields,
      source_mode: input.source_mode ?? 'server',
      metadata: input.metadata ?? {},
      created_at: now,
      updated_at: now,
    };
    const created = await storage.transaction((tx) => tx.skills.create(skill, files));
    if (!created) throw this.taken(fields.name, owner.scope);
    return { ...skill, manifest };
  }

  async update(caller: RegistryCaller, id: string, patch: UpdateSkillInput): Promise<Skill> {
    await this.change(caller, id, async (skill, tx) => {
      const manifest = withGivenFields(patch.manifest ?? skill.manifest, patch);
      const { name: _name, ...fields } = manifestFields(
        manifest,
        { description: patch.description, version: patch.version },
        skill,
      );
      const writes =
        manifest === skill.manifest
          ? []
          : [skillFile(SKILL_MANIFEST_PATH, Buffer.from(manifest, 'utf8'), isoNow(this.deps.clock))];
      await this.write(tx, skill, {
        writes,
        patch: { ...fields, source_mode: patch.source_mode, metadata: patch.metadata },
      });
    });
    return this.get(caller, id);
  }

  async listFiles(caller: RegistryCaller, id: string): Promise<SkillFileInfo[]> {
    await this.get(caller, id);
    return this.deps.storage.skills.listFiles(id);
  }

  async getFile(caller: RegistryCaller, id: string, path: string): Promise<SkillFile> {
    await this.get(caller, id);
    const file = await this.deps.storage.skills.getFile(id, checkFilePath(path));
    if (!file) throw notFound(`file of skill '${id}'`, path);
    return file;
  }

  /** Creates or replaces one file; the same content again changes nothing (not even its time). */
  async putFile(
    caller: RegistryCaller,
    id: string,
    path: string,
    content: Buffer,
  ): Promise<{ file: SkillFileInfo; created: boolean }> {
    return this.change(caller, id, async (skill, tx) => {
      checkFilePath(path);
      const existing = await tx.skills.getFile(id, path);
      const file = skillFile(path, content, isoNow(this.deps.clock));
      if (existing?.sha256 === file.sha256) return { file: fileInfo(existing), created: false };
      await this.write(tx, skill, { writes: [file] });
      return { file: fileInfo({ ...file, created_at: existing?.created_at ?? file.created_at }), created: !existing };
    });
  }

  async deleteFile(caller: RegistryCaller, id: string, path: string): Promise<void> {
    await this.change(caller, id, async (skill, tx) => {
      if (checkFilePath(path) === SKILL_MANIFEST_PATH)
        throw invalid('/path', `${SKILL_MANIFEST_PATH} is the manifest: replace it, or delete the skill`);
      if (!(await tx.skills.getFile(id, path))) throw notFound(`file of skill '${id}'`, path);
      await this.write(tx, skill, { deletes: [path] });
    });
  }

  /** The skill and its files, read one at a time as they are consumed. */
  async bundle(caller: RegistryCaller, id: string): Promise<{ skill: Skill; files: AsyncIterable<SkillFile> }> {
    const skill = await this.get(caller, id);
    const storage = this.deps.storage;
    const infos = await storage.skills.listFiles(id);
    async function* files(): AsyncGenerator<SkillFile> {
      for (const info of infos) {
        const file = await storage.skills.getFile(id, info.path);
        // Deleted since the listing: the bundle is of the files still there.
        if (file) yield file;
      }
    }
    return { skill, files: files() };
  }

  async sync(caller: RegistryCaller, id: string, request: SkillSyncRequest): Promise<SkillSyncReport> {
    const now = isoNow(this.deps.clock);
    const { plan, skill } = await this.change(caller, id, async (skill, tx) => {
      const plan = syncSkillFiles(skill, await tx.skills.listFiles(id), request, now);
      await this.write(tx, skill, { writes: plan.writes, deletes: plan.deletes });
      return { plan, skill };
    });
    return {
      ...plan.report,
      skill: plan.writes.length + plan.deletes.length > 0 ? await this.get(caller, id) : skill,
      synced_at: now,
    };
  }

  /**
   * Writes files, deletes files and changes the record in one transaction; a new SKILL.md updates the fields its
   * front matter states (checked before anything is written). In the transaction of the change (`change`).
   */
  private async write(
    tx: Storage,
    skill: Skill,
    change: { writes?: readonly SkillFile[]; deletes?: readonly string[]; patch?: Omit<SkillPatch, 'updated_at'> },
  ): Promise<void> {
    const { writes = [], deletes = [], patch = {} } = change;
    if (writes.length === 0 && deletes.length === 0 && Object.keys(patch).length === 0) return;
    const manifest = writes.find((f) => f.path === SKILL_MANIFEST_PATH);
    const { name: _name, ...stated } = manifest ? manifestFields(manifestText(manifest.content), {}, skill) : {};
    await tx.skills.putFiles(skill.id, writes);
    await tx.skills.deleteFiles(skill.id, deletes);
    await tx.skills.update(skill.id, { ...stated, ...patch, updated_at: isoNow(this.deps.clock) });
  }
}

function manifestOf(input: CreateSkillInput): string {
  if (input.manifest !== undefined) {
    if (input.body !== undefined)
      throw invalid('/body', 'send either `manifest` (the whole SKILL.md) or `body`, not both');
    for (const part of ['license', 'compatibility', 'allowed_tools'] as const) {
      if (input[part] !== undefined)
        throw invalid(`/${part}`, 'goes with `body`; with `manifest`, write it in the front matter');
    }
    return input.manifest;
  }
  if (input.body === undefined)
    throw invalid('/manifest', 'is required (or `body` with the fields of its front matter)');
  const { name, description, version, license, compatibility, allowed_tools } = input;
  return composeManifest(
    { name, description, version, license, compatibility, 'allowed-tools': allowed_tools },
    input.body,
  );
}

function initialFiles(inputs: readonly FileInput[], at: string): SkillFile[] {
  const seen = new Set<string>();
  return inputs.map((input, i) => {
    const path = checkFilePath(input.path, `/files/${i}/path`);
    if (path === SKILL_MANIFEST_PATH)
      throw invalid(`/files/${i}/path`, `${SKILL_MANIFEST_PATH} is the manifest: send it as \`manifest\``);
    if (seen.has(path)) throw invalid(`/files/${i}/path`, `'${path}' is listed twice`);
    seen.add(path);
    return skillFile(path, decodeContent(input.content, input.encoding ?? 'utf8', `/files/${i}/content`), at);
  });
}

const fileInfo = ({ content: _content, ...info }: SkillFile): SkillFileInfo => info;

/** SKILL.md as text; it must be UTF-8. */
function manifestText(content: Buffer): string {
  const text = utf8Text(content);
  if (text === null) throw invalid(`/${SKILL_MANIFEST_PATH}`, 'must be UTF-8 text');
  return text;
}

import type { Expression, Selectable, SqlBool } from 'kysely';
import type { SkillFilesTable, SkillsTable } from '../database.js';
import { json, parseJsonObject, toIso } from '../rows.js';
import {
  SKILL_MANIFEST_PATH,
  type Skill,
  type SkillFile,
  type SkillFileInfo,
  type SkillPatch,
  type SkillScope,
  type SkillStore,
  type SourceMode,
} from '../types.js';
import type { SqlContext } from './context.js';
import { SqlScopedStore } from './scoped.js';

type SkillRow = Selectable<SkillsTable> & { manifest: Buffer };

const toSkill = (row: SkillRow): Skill => ({
  id: row.id,
  tenant_id: row.tenant_id,
  scope: row.scope as SkillScope,
  workspace_id: row.workspace_id,
  user_id: row.user_id,
  name: row.name,
  version: row.version,
  description: row.description,
  source_mode: row.source_mode as SourceMode,
  metadata: parseJsonObject(row.metadata),
  manifest: row.manifest.toString('utf8'),
  created_at: toIso(row.created_at),
  updated_at: toIso(row.updated_at),
});

const toInfo = (row: Omit<Selectable<SkillFilesTable>, 'skill_id' | 'content'>): SkillFileInfo => ({
  path: row.path,
  size: Number(row.size),
  sha256: row.sha256,
  created_at: toIso(row.created_at),
  updated_at: toIso(row.updated_at),
});

const fileRow = (skillId: string, file: SkillFile) => ({ skill_id: skillId, ...file });

/** Skills: the scoped table's queries (SqlScopedStore) over `skills`, each with its SKILL.md; and their files. */
export class SqlSkillStore extends SqlScopedStore<'skills', Skill> implements SkillStore {
  constructor(ctx: SqlContext) {
    super(ctx, 'skills');
  }

  /** Skills with their manifest (the SKILL.md file row). */
  protected async selectWhere(where: Expression<SqlBool>): Promise<Skill[]> {
    const rows = await this.ctx.db
      .selectFrom('skills')
      .innerJoin('skill_files as manifest', (join) =>
        join.onRef('manifest.skill_id', '=', 'skills.id').on('manifest.path', '=', SKILL_MANIFEST_PATH),
      )
      .selectAll('skills')
      .select('manifest.content as manifest')
      .where(where)
      .orderBy('skills.name')
      .orderBy('skills.id')
      .execute();
    return rows.map(toSkill);
  }

  async create(skill: Omit<Skill, 'manifest'>, files: readonly SkillFile[]): Promise<boolean> {
    if (!(await this.insertUnlessTaken({ ...skill, metadata: json(skill.metadata) }))) return false;
    await this.putFiles(skill.id, files);
    return true;
  }

  async update(id: string, patch: SkillPatch): Promise<Skill | null> {
    const { metadata, ...rest } = patch;
    const updated = await this.ctx.db
      .updateTable('skills')
      .set({ ...rest, ...(metadata === undefined ? {} : { metadata: json(metadata) }) })
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(updated.numUpdatedRows) > 0 ? this.get(id) : null;
  }

  async listFiles(skillId: string): Promise<SkillFileInfo[]> {
    const rows = await this.ctx.db
      .selectFrom('skill_files')
      .select(['path', 'size', 'sha256', 'created_at', 'updated_at'])
      .where('skill_id', '=', skillId)
      .orderBy('path')
      .execute();
    return rows.map(toInfo);
  }

  async getFile(skillId: string, path: string): Promise<SkillFile | null> {
    const row = await this.ctx.db
      .selectFrom('skill_files')
      .selectAll()
      .where('skill_id', '=', skillId)
      .where('path', '=', path)
      .executeTakeFirst();
    return row ? { ...toInfo(row), content: row.content } : null;
  }

  async putFiles(skillId: string, files: readonly SkillFile[]): Promise<void> {
    for (const file of files) {
      await this.ctx.db
        .insertInto('skill_files')
        .values(fileRow(skillId, file))
        .onConflict((oc) =>
          oc
            .columns(['skill_id', 'path'])
            .doUpdateSet({ content: file.content, size: file.size, sha256: file.sha256, updated_at: file.updated_at }),
        )
        .execute();
    }
  }

  async deleteFiles(skillId: string, paths: readonly string[]): Promise<number> {
    if (paths.length === 0) return 0;
    const result = await this.ctx.db
      .deleteFrom('skill_files')
      .where('skill_id', '=', skillId)
      .where('path', 'in', paths)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}

import { invalid } from '../../errors.js';
import { SKILL_MANIFEST_PATH, type Skill, type SkillFile, type SkillFileInfo } from '../../storage/types.js';
import { decideSync, type SyncCopy } from '../registries/sync.js';
import { checkFilePath, decodeContent, skillFile, type FileEncoding } from './files.js';

/** A file as the client has it; `content` may come along so that an upload happens in the same call. */
export interface ClientFile {
  path: string;
  sha256: string;
  modified_at: string;
  content?: string | undefined;
  encoding?: FileEncoding | undefined;
}

export interface SkillSyncRequest {
  /** `synced_at` of the client's last sync whose actions it completed; null or absent: never synced. */
  since: string | null;
  /** Every file the client has, SKILL.md included. */
  files: ClientFile[];
}

export interface SkillSyncReport {
  skill: Skill;
  /** Pass as `since` next time, once the actions below are done. */
  synced_at: string;
  /** Stored from the content sent in this call. */
  uploaded: string[];
  /** The server needs these: PUT them, or sync again with their content. */
  upload: string[];
  /** The client should fetch these (GET the file, or the bundle). */
  download: SkillFileInfo[];
  /** The client should delete these: they were deleted on the server since its last sync. */
  delete_on_client: string[];
  /** Deleted on the server: the client deleted them since its last sync. */
  deleted_on_server: string[];
  /** Paths both sides changed; `winner` is the side the source mode chose. */
  conflicts: Array<{ path: string; winner: 'client' | 'server' }>;
}

export interface SkillSyncPlan {
  writes: SkillFile[];
  deletes: string[];
  report: Omit<SkillSyncReport, 'skill' | 'synced_at'>;
}

/**
 * The per-file decisions of a two-way sync (see `decideSync`), and the writes they imply on the server. SKILL.md is
 * never deleted: a client without it downloads it. A request that cannot be applied whole is refused whole.
 */
export function syncSkillFiles(
  skill: Skill,
  serverFiles: readonly SkillFileInfo[],
  request: SkillSyncRequest,
  now: string,
): SkillSyncPlan {
  const clientFiles = new Map<string, { file: ClientFile; index: number }>();
  request.files.forEach((file, index) => {
    checkFilePath(file.path, `/files/${index}/path`);
    if (clientFiles.has(file.path)) throw invalid(`/files/${index}/path`, `'${file.path}' is listed twice`);
    clientFiles.set(file.path, { file, index });
  });
  const server = new Map(serverFiles.map((f) => [f.path, f]));
  const plan: SkillSyncPlan = {
    writes: [],
    deletes: [],
    report: { uploaded: [], upload: [], download: [], delete_on_client: [], deleted_on_server: [], conflicts: [] },
  };
  const { report } = plan;

  for (const path of [...new Set([...server.keys(), ...clientFiles.keys()])].sort()) {
    const client = clientFiles.get(path)?.file;
    const stored = server.get(path);
    const clientCopy: SyncCopy | null = client
      ? { sha256: client.sha256.toLowerCase(), modifiedAt: client.modified_at }
      : null;
    const serverCopy: SyncCopy | null = stored ? { sha256: stored.sha256, modifiedAt: stored.updated_at } : null;
    let { action, conflict } = decideSync(clientCopy, serverCopy, request.since, skill.source_mode);
    if (action === 'delete_on_server' && path === SKILL_MANIFEST_PATH) action = 'download';
    if (conflict) report.conflicts.push({ path, winner: action === 'upload' ? 'client' : 'server' });

    if (action === 'download') report.download.push(stored!);
    else if (action === 'delete_on_client') report.delete_on_client.push(path);
    else if (action === 'delete_on_server') {
      plan.deletes.push(path);
      report.deleted_on_server.push(path);
    } else if (action === 'upload') {
      const { file, index } = clientFiles.get(path)!;
      if (file.content === undefined) report.upload.push(path);
      else {
        plan.writes.push(uploaded(file, index, now));
        report.uploaded.push(path);
      }
    }
  }
  return plan;
}

function uploaded(file: ClientFile, index: number, now: string): SkillFile {
  const stored = skillFile(
    file.path,
    decodeContent(file.content!, file.encoding ?? 'utf8', `/files/${index}/content`),
    now,
  );
  if (stored.sha256 !== file.sha256.toLowerCase())
    throw invalid(`/files/${index}/sha256`, 'does not match the content sent');
  return stored;
}

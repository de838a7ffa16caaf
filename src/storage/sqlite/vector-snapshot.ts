import { createHash, randomUUID } from 'node:crypto';
import {
  closeSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import type { Index } from 'usearch';
import type { VectorIndexOptions } from './vector-index.js';
import type { SnapshotGroups } from './workspace-index.js';

/**
 * The in-memory HNSW graphs on disk, so that a restart loads them instead of building them again (about a minute
 * per 100k vectors on two cores). A snapshot is a hint, never the truth: what it holds is checked against the
 * database row by row at start (WorkspaceVectorIndexes.confirm), so a stale, foreign or missing snapshot costs time,
 * not correctness. Layout: one usearch file per workspace, and `manifest.json` (written last, by rename) naming them
 * with each graph's groups of memories.
 */
const MANIFEST = 'manifest.json';
const FORMAT = 2;

export interface SnapshotWorkspace {
  workspaceId: string;
  /** The usearch file of the graph, in the snapshot's folder. */
  graph: string;
  /** SHA-256 of that file: usearch takes a damaged file down with the process instead of failing, so it is checked first. */
  sha256: string;
  groups: SnapshotGroups;
}

interface Manifest {
  format: number;
  /**
   * A random name written with the snapshot, and into the database at the clean close that saved it. A database
   * that still holds it when opened was not written since (opening takes it out), so its rows need no checking.
   */
  seal?: string;
  options: VectorIndexOptions;
  workspaces: SnapshotWorkspace[];
}

/** SHA-256 of a file, read a megabyte at a time (a graph of 100k vectors is over 100 MB). */
function fileDigest(path: string): string {
  const hash = createHash('sha256');
  const chunk = Buffer.allocUnsafe(1 << 20);
  const fd = openSync(path, 'r');
  try {
    for (let read = readSync(fd, chunk); read > 0; read = readSync(fd, chunk)) hash.update(chunk.subarray(0, read));
  } finally {
    closeSync(fd);
  }
  return hash.digest('hex');
}

/** Flushes a file (or a folder's entries) to the disk: the manifest must never name a graph the disk does not hold whole. */
function flush(path: string): void {
  // Read-only is enough for fsync on Linux, and a folder can only be opened so.
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Writes the graphs and then the manifest naming them, and removes the files of earlier snapshots. Answers its seal. */
export function writeSnapshot(
  dir: string,
  options: VectorIndexOptions,
  workspaces: ReadonlyArray<{ workspaceId: string; graph: Index; groups: SnapshotGroups }>,
): string {
  mkdirSync(dir, { recursive: true });
  const generation = `${Date.now().toString(36)}-${process.pid}`;
  const entries = workspaces.map(({ workspaceId, graph, groups }, i): SnapshotWorkspace => {
    const file = `${generation}-${i}.usearch`;
    graph.save(join(dir, file));
    flush(join(dir, file));
    return { workspaceId, graph: file, sha256: fileDigest(join(dir, file)), groups };
  });
  const seal = randomUUID();
  const manifest: Manifest = { format: FORMAT, seal, options, workspaces: entries };
  const staged = join(dir, `${generation}.manifest.tmp`);
  writeFileSync(staged, JSON.stringify(manifest));
  flush(staged);
  renameSync(staged, join(dir, MANIFEST));
  flush(dir);
  for (const name of readdirSync(dir))
    if (name !== MANIFEST && !name.startsWith(generation)) rmSync(join(dir, name), { force: true });
  return seal;
}

/**
 * Whether a graph saved under `a` serves an index made with `b`: what the graph file holds (its vectors' dimensions
 * and precision, its connectivity). The beams are not: the one used to insert only shapes the nodes added later, and
 * the search beam each search; a change of either had discarded the snapshot and rebuilt a million-memory graph at
 * start.
 */
const sameGraph = (a: VectorIndexOptions, b: VectorIndexOptions): boolean =>
  a.dimensions === b.dimensions && a.quantization === b.quantization && a.connectivity === b.connectivity;

/** A snapshot read back: its graphs (files as full paths), and its seal (null: written before seals). */
export interface Snapshot {
  seal: string | null;
  workspaces: SnapshotWorkspace[];
}

/**
 * The snapshot under `dir`, or null: none, unreadable, made with other index options, or a graph file that is not
 * the one written.
 */
export function readSnapshot(dir: string, options: VectorIndexOptions): Snapshot | null {
  try {
    const manifest = JSON.parse(readFileSync(join(dir, MANIFEST), 'utf8')) as Manifest;
    if (manifest.format !== FORMAT || !sameGraph(manifest.options, options)) return null;
    const workspaces = manifest.workspaces.map((w) => ({ ...w, graph: join(dir, w.graph) }));
    return workspaces.every((w) => fileDigest(w.graph) === w.sha256)
      ? { seal: manifest.seal ?? null, workspaces }
      : null;
  } catch {
    return null;
  }
}

/** Removes the snapshot (its vectors no longer describe the database, e.g. after re-embedding). */
export function removeSnapshot(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

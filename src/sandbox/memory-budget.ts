import { wasm, type WasmMemory } from './wasm.js';

/**
 * One memory budget per sandbox: the interpreter's WebAssembly heap plus the bytes of files it keeps
 * in its in-memory filesystem. Both live in this process, so both must be bounded, or a Python loop
 * writing files would grow the server's memory past any limit on the heap alone.
 */

/** ENOSPC in Emscripten's errno numbering: Python sees `OSError: [Errno 51] No space left on device`. */
const ENOSPC = 51;

interface FsNode {
  mode: number;
  contents: unknown;
  mounted?: { root: FsNode } | null;
}

export interface EmscriptenFs {
  root: FsNode;
  isDir(mode: number): boolean;
  isFile(mode: number): boolean;
  ErrnoError: new (errno: number) => Error;
  filesystems: Record<string, unknown>;
}

type WriteOp = (
  stream: { node: FsNode },
  buffer: Uint8Array,
  offset: number,
  length: number,
  position: number,
  canOwn?: boolean,
) => number;

interface MemFs {
  stream_ops: { write: WriteOp };
  /** The stream operations every regular file node points at (a copy of `stream_ops`). */
  ops_table: { file: { stream: { write: WriteOp } } };
  expandFileStorage(node: FsNode, capacity: number): void;
  resizeFileStorage(node: FsNode, size: number): void;
}

export class MemoryBudget {
  /** An upper bound on the bytes held in files: exact when measured, raised by every write since. */
  private fileBytesAtMost = 0;
  private measureFiles: () => number = () => 0;

  constructor(readonly limitBytes: number) {}

  /**
   * Emscripten grows its heap through `WebAssembly.Memory.prototype.grow` and treats a throw as
   * "no memory": malloc returns NULL and Python raises MemoryError. Must run before Pyodide loads.
   */
  capHeapGrowth(): void {
    const grow = wasm.Memory.prototype.grow;
    const budget = this;
    wasm.Memory.prototype.grow = function (this: WasmMemory, deltaPages: number): number {
      if (!budget.fits(this.buffer.byteLength + deltaPages * 65_536, 0))
        throw new RangeError('sandbox memory limit reached');
      return grow.call(this, deltaPages);
    };
  }

  /** Files count against the same budget: writing past it fails with ENOSPC. */
  capFileStorage(fs: EmscriptenFs, heapBytes: () => number): void {
    const memfs = fs.filesystems.MEMFS as MemFs;
    this.measureFiles = () => storedBytes(fs, fs.root);
    this.fileBytesAtMost = this.measureFiles();
    const admit = (node: FsNode, newSize: number): void => {
      if (!this.fits(heapBytes(), Math.max(newSize - byteLength(node.contents), 0))) throw new fs.ErrnoError(ENOSPC);
    };
    // File nodes share the ops_table copy, so replacing its write covers every file, fast paths
    // included; the original in stream_ops is replaced too, so it cannot be copied back.
    const { write } = memfs.stream_ops;
    const admittedWrite: WriteOp = (stream, buffer, offset, length, position, canOwn) => {
      admit(stream.node, position + length);
      return write.call(memfs.stream_ops, stream, buffer, offset, length, position, canOwn);
    };
    memfs.stream_ops.write = admittedWrite;
    memfs.ops_table.file.stream.write = admittedWrite;
    const { expandFileStorage, resizeFileStorage } = memfs;
    memfs.expandFileStorage = (node, capacity) => {
      admit(node, capacity);
      expandFileStorage.call(memfs, node, capacity);
    };
    memfs.resizeFileStorage = (node, size) => {
      admit(node, size);
      resizeFileStorage.call(memfs, node, size);
    };
  }

  /** Whether the heap at `heapBytes` and files grown by `extraFileBytes` stay within the limit. */
  private fits(heapBytes: number, extraFileBytes: number): boolean {
    const within = (): boolean => heapBytes + this.fileBytesAtMost + extraFileBytes <= this.limitBytes;
    // The bound only errs high (deleted files are still counted); measure again before refusing.
    if (!within()) this.fileBytesAtMost = this.measureFiles();
    if (!within()) return false;
    this.fileBytesAtMost += extraFileBytes;
    return true;
  }
}

/** File contents are typed arrays of various kinds (Int8Array when copied from the heap), or plain arrays. */
function byteLength(contents: unknown): number {
  if (ArrayBuffer.isView(contents)) return contents.byteLength;
  return Array.isArray(contents) ? contents.length : 0;
}

function storedBytes(fs: EmscriptenFs, node: FsNode): number {
  const dir = node.mounted ? node.mounted.root : node;
  if (fs.isFile(dir.mode)) return byteLength(dir.contents);
  if (!fs.isDir(dir.mode) || typeof dir.contents !== 'object' || dir.contents === null) return 0;
  let total = 0;
  for (const child of Object.values(dir.contents as Record<string, FsNode>)) total += storedBytes(fs, child);
  return total;
}

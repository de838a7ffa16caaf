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

interface MemFs {
  expandFileStorage(node: FsNode, capacity: number): void;
  resizeFileStorage(node: FsNode, size: number): void;
}

export class MemoryBudget {
  private fileBytes: () => number = () => 0;

  constructor(readonly limitBytes: number) {}

  /**
   * Emscripten grows its heap through `WebAssembly.Memory.prototype.grow` and treats a throw as
   * "no memory": malloc returns NULL and Python raises MemoryError. Must run before Pyodide loads.
   */
  capHeapGrowth(): void {
    const grow = wasm.Memory.prototype.grow;
    const budget = this;
    wasm.Memory.prototype.grow = function (this: WasmMemory, deltaPages: number): number {
      const next = this.buffer.byteLength + deltaPages * 65_536;
      if (next + budget.fileBytes() > budget.limitBytes) throw new RangeError('sandbox memory limit reached');
      return grow.call(this, deltaPages);
    };
  }

  /** Files count against the same budget: growing one past it fails with ENOSPC. */
  capFileStorage(fs: EmscriptenFs, heapBytes: () => number): void {
    const memfs = fs.filesystems.MEMFS as MemFs;
    this.fileBytes = () => storedBytes(fs, fs.root);
    const fits = (extraBytes: number): boolean => heapBytes() + this.fileBytes() + extraBytes <= this.limitBytes;
    const { expandFileStorage, resizeFileStorage } = memfs;
    memfs.expandFileStorage = (node, capacity) => {
      if (!fits(capacity - byteLength(node.contents))) throw new fs.ErrnoError(ENOSPC);
      expandFileStorage.call(memfs, node, capacity);
    };
    memfs.resizeFileStorage = (node, size) => {
      if (!fits(size - byteLength(node.contents))) throw new fs.ErrnoError(ENOSPC);
      resizeFileStorage.call(memfs, node, size);
    };
  }
}

function byteLength(contents: unknown): number {
  if (contents instanceof Uint8Array || Array.isArray(contents)) return contents.length;
  return 0;
}

function storedBytes(fs: EmscriptenFs, node: FsNode): number {
  const dir = node.mounted ? node.mounted.root : node;
  if (fs.isFile(dir.mode)) return byteLength(dir.contents);
  if (!fs.isDir(dir.mode) || typeof dir.contents !== 'object' || dir.contents === null) return 0;
  let total = 0;
  for (const child of Object.values(dir.contents as Record<string, FsNode>)) total += storedBytes(fs, child);
  return total;
}

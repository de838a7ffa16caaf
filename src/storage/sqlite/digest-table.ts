import { grown } from './grown.js';

/** A digest's length in bytes (`vectorDigest`): the first 128 bits of a SHA-256. */
export const DIGEST_BYTES = 16;

/**
 * Small whole numbers (the vector index's group keys) by a 16-byte digest, and each key's digest, in typed arrays:
 * a Map keyed by digest strings held a million strings at a million memories, for every major garbage collection to
 * trace (BENCHMARKS.md, "The vector index's memory as typed arrays"). Open addressing with linear probing; a digest
 * is already uniform, so its first four bytes are its hash.
 */
export class DigestTable {
  /** Key k's digest at 16 k. */
  private digests = new Uint8Array(DIGEST_BYTES * 1024);
  /** key + 1 per cell; 0 is an empty cell. At most half full. */
  private cells = new Int32Array(2048);
  private count = 0;

  get size(): number {
    return this.count;
  }

  /** The key filed under `digest` (a 16-character latin1 string), or -1. */
  find(digest: string): number {
    const mask = this.cells.length - 1;
    for (let cell = hashOfString(digest) & mask; ; cell = (cell + 1) & mask) {
      const held = this.cells[cell]!;
      if (held === 0) return -1;
      if (this.digestIs(held - 1, digest)) return held - 1;
    }
  }

  /** The digest filed with `key`, as `find` takes it. */
  digestOf(key: number): string {
    return Buffer.from(this.digests.buffer, this.digests.byteOffset + DIGEST_BYTES * key, DIGEST_BYTES).toString(
      'latin1',
    );
  }

  /** Files `key` under `digest`; neither may be filed already. */
  add(key: number, digest: string): void {
    if (2 * (this.count + 1) > this.cells.length) this.rehash(2 * this.cells.length);
    this.digests = grown(this.digests, DIGEST_BYTES * (key + 1));
    for (let i = 0; i < DIGEST_BYTES; i++) this.digests[DIGEST_BYTES * key + i] = digest.charCodeAt(i);
    this.place(key);
    this.count++;
  }

  /** Takes `key` out; its cell is filled by shifting back the entries probed past it, so no marker is left. */
  delete(key: number): void {
    const mask = this.cells.length - 1;
    let hole = this.home(key);
    while (this.cells[hole] !== key + 1) {
      if (this.cells[hole] === 0) return;
      hole = (hole + 1) & mask;
    }
    for (let cell = (hole + 1) & mask; this.cells[cell] !== 0; cell = (cell + 1) & mask) {
      const home = this.home(this.cells[cell]! - 1);
      // The entry may move back to the hole unless its home lies after the hole, up to its own cell (cyclically).
      const stays = hole < cell ? home > hole && home <= cell : home > hole || home <= cell;
      if (stays) continue;
      this.cells[hole] = this.cells[cell]!;
      hole = cell;
    }
    this.cells[hole] = 0;
    this.count--;
  }

  private place(key: number): void {
    const mask = this.cells.length - 1;
    let cell = this.home(key);
    while (this.cells[cell] !== 0) cell = (cell + 1) & mask;
    this.cells[cell] = key + 1;
  }

  private rehash(capacity: number): void {
    const old = this.cells;
    this.cells = new Int32Array(capacity);
    for (const held of old) if (held !== 0) this.place(held - 1);
  }

  private home(key: number): number {
    const at = DIGEST_BYTES * key;
    const d = this.digests;
    return (d[at]! | (d[at + 1]! << 8) | (d[at + 2]! << 16) | (d[at + 3]! << 24)) & (this.cells.length - 1);
  }

  private digestIs(key: number, digest: string): boolean {
    const at = DIGEST_BYTES * key;
    for (let i = 0; i < DIGEST_BYTES; i++) if (this.digests[at + i] !== digest.charCodeAt(i)) return false;
    return true;
  }
}

function hashOfString(digest: string): number {
  return (
    digest.charCodeAt(0) | (digest.charCodeAt(1) << 8) | (digest.charCodeAt(2) << 16) | (digest.charCodeAt(3) << 24)
  );
}

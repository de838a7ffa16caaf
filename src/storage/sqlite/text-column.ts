import { grown } from './grown.js';

/**
 * Strings by slot, their UTF-8 bytes in one buffer: a million ids held so are one object for the garbage collector
 * to trace instead of a million (BENCHMARKS.md, "The vector index's memory as typed arrays"). A slot's bytes are
 * appended when it is set; bytes left behind by cleared slots are reclaimed by copying the live ones once they are
 * more than half the buffer.
 */
export class TextColumn {
  private bytes = Buffer.alloc(64 * 1024);
  /** Bytes written, live or left behind. */
  private used = 0;
  /** Bytes of cleared or overwritten slots. */
  private garbage = 0;
  private starts = new Uint32Array(1024);
  /** -1: the slot holds nothing (null). */
  private lengths = new Int32Array(1024).fill(-1);

  get(slot: number): string | null {
    const length = slot < this.lengths.length ? this.lengths[slot]! : -1;
    if (length < 0) return null;
    const start = this.starts[slot]!;
    return this.bytes.toString('utf8', start, start + length);
  }

  set(slot: number, text: string | null): void {
    this.clear(slot);
    if (text === null) return;
    this.reserveSlots(slot + 1);
    const length = Buffer.byteLength(text, 'utf8');
    this.reserveBytes(length);
    this.bytes.write(text, this.used, 'utf8');
    this.starts[slot] = this.used;
    this.lengths[slot] = length;
    this.used += length;
  }

  clear(slot: number): void {
    if (slot >= this.lengths.length || this.lengths[slot]! < 0) return;
    this.garbage += this.lengths[slot]!;
    this.lengths[slot] = -1;
  }

  /** Room for slots below `count` without growing. */
  reserveSlots(count: number): void {
    this.starts = grown(this.starts, count);
    this.lengths = grown(this.lengths, count, -1);
  }

  private reserveBytes(length: number): void {
    if (this.used + length <= this.bytes.length) return;
    const live = this.used - this.garbage;
    // Copying the live bytes into a buffer twice their size (at least) keeps every byte copied at most a few times
    // over a column's life, however slots are overwritten.
    const capacity = Math.max(2 * (live + length), this.bytes.length);
    if (this.garbage > live) this.compact(capacity);
    else {
      const bytes = Buffer.alloc(Math.max(capacity, 2 * this.bytes.length));
      this.bytes.copy(bytes, 0, 0, this.used);
      this.bytes = bytes;
    }
  }

  /** Copies the live slots' bytes to the front of a new buffer, in slot order. */
  private compact(capacity: number): void {
    const bytes = Buffer.alloc(capacity);
    let at = 0;
    for (let slot = 0; slot < this.lengths.length; slot++) {
      const length = this.lengths[slot]!;
      if (length < 0) continue;
      const start = this.starts[slot]!;
      this.bytes.copy(bytes, at, start, start + length);
      this.starts[slot] = at;
      at += length;
    }
    this.bytes = bytes;
    this.used = at;
    this.garbage = 0;
  }
}

import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import type { EmbeddingProvider } from '../../src/providers/embedding/types.js';

/**
 * An embedder that remembers every vector it has produced in a file, so a rerun of the benchmark does not embed
 * 100,000 texts again. It reports the identity of the provider it wraps (same vector space). Records are
 * [u32 text bytes][text][f32 x dimensions], appended as they are computed.
 */
export class DiskCachedEmbedder implements EmbeddingProvider {
  private readonly vectors = new Map<string, Float32Array>();
  computed = 0;

  constructor(
    private readonly inner: EmbeddingProvider,
    private readonly file: string,
  ) {}

  get name() {
    return this.inner.name;
  }
  get model() {
    return this.inner.model;
  }
  get dimensions() {
    return this.inner.dimensions;
  }

  async init(): Promise<void> {
    await this.inner.init();
    if (!existsSync(this.file)) return;
    const data = readFileSync(this.file);
    const width = this.dimensions * 4;
    for (let at = 0; at + 4 <= data.length; ) {
      const length = data.readUInt32LE(at);
      const end = at + 4 + length + width;
      if (end > data.length) break; // a record cut short by an interrupted run
      const text = data.toString('utf8', at + 4, at + 4 + length);
      const vector = new Float32Array(this.dimensions);
      new Uint8Array(vector.buffer).set(data.subarray(at + 4 + length, end));
      this.vectors.set(text, vector);
      at = end;
    }
  }

  get size(): number {
    return this.vectors.size;
  }

  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    const missing = [...new Set(texts.filter((t) => !this.vectors.has(t)))];
    if (missing.length > 0) {
      const computed = await this.inner.embed(missing);
      const records: Buffer[] = [];
      missing.forEach((text, i) => {
        const vector = computed[i]!;
        this.vectors.set(text, vector);
        const bytes = Buffer.from(text, 'utf8');
        const header = Buffer.alloc(4);
        header.writeUInt32LE(bytes.length);
        records.push(header, bytes, Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength));
      });
      appendFileSync(this.file, Buffer.concat(records));
      this.computed += missing.length;
    }
    return texts.map((t) => this.vectors.get(t)!.slice());
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}

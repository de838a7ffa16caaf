import { HashEmbeddingProvider } from '../../src/providers/embedding/hash.js';

/**
 * The `hash` embedder (same name, model and width, so a server restarted with the plain one accepts the data) whose
 * calls can be held: `holdCall(n)` makes the n-th call from now wait until released, so a test can act while an
 * ingestion is in the middle of its work.
 */
export class HoldableEmbedder extends HashEmbeddingProvider {
  private calls = 0;
  private readonly held = new Map<number, { reached: () => void; released: Promise<void> }>();

  holdCall(n: number): { reached: Promise<void>; release: () => void } {
    let reached!: () => void;
    let release!: () => void;
    const reachedPromise = new Promise<void>((resolve) => (reached = resolve));
    const released = new Promise<void>((resolve) => (release = resolve));
    this.held.set(this.calls + n, { reached, released });
    return { reached: reachedPromise, release };
  }

  override async embed(texts: readonly string[]): Promise<Float32Array[]> {
    const hold = this.held.get(++this.calls);
    if (hold) {
      hold.reached();
      await hold.released;
    }
    return super.embed(texts);
  }
}

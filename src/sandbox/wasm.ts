/**
 * The parts of the global `WebAssembly` object the sandbox patches. The project compiles without
 * the DOM library, whose declarations @types/node relies on for WebAssembly's values.
 */
export interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(deltaPages: number): number;
}

export type WasmImports = Record<string, Record<string, unknown>>;

interface WasmApi {
  Memory: { prototype: WasmMemory };
  instantiate(source: unknown, imports?: WasmImports): Promise<unknown>;
}

export const wasm = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

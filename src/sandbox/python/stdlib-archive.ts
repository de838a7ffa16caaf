/**
 * Pyodide keeps the Python standard library, its own bridge packages among it (`pyodide`, `_pyodide`), in one zip
 * archive in the sandbox's in-memory filesystem. Erasing the bridge packages from that archive is what makes the
 * import fence hold by construction: with their sources gone, no finder (ours removed, the import caches cleared,
 * `builtins.__import__` replaced) can create those modules again.
 */

const CENTRAL_ENTRY = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;
const END_OF_DIRECTORY = 0x06054b50;
const ERASED = 0x7e; // '~': no module path contains it

/**
 * Overwrites, in place, the name (in the central directory and in the local header) and the data of every entry
 * under one of `packages` (top-level directories of the archive). Offsets and sizes stay: the archive stays readable,
 * without those entries. Returns how many entries were erased.
 */
export function erasePackages(archive: Uint8Array, packages: readonly string[]): number {
  const view = new DataView(archive.buffer, archive.byteOffset, archive.byteLength);
  let end = archive.length - 22;
  while (end >= 0 && view.getUint32(end, true) !== END_OF_DIRECTORY) end--;
  if (end < 0) throw new Error('sandbox: the standard library archive has no central directory');
  const count = view.getUint16(end + 10, true);
  const decoder = new TextDecoder();
  let erased = 0;
  for (let entry = view.getUint32(end + 16, true), i = 0; i < count; i++) {
    if (view.getUint32(entry, true) !== CENTRAL_ENTRY)
      throw new Error('sandbox: the standard library archive is not a plain zip');
    const compressedSize = view.getUint32(entry + 20, true);
    const nameLength = view.getUint16(entry + 28, true);
    const next = entry + 46 + nameLength + view.getUint16(entry + 30, true) + view.getUint16(entry + 32, true);
    const name = decoder.decode(archive.subarray(entry + 46, entry + 46 + nameLength));
    if (packages.includes(name.split('/')[0]!)) {
      const local = view.getUint32(entry + 42, true);
      if (view.getUint32(local, true) !== LOCAL_HEADER)
        throw new Error('sandbox: the standard library archive is not a plain zip');
      const localName = local + 30;
      const data = localName + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
      archive.fill(ERASED, entry + 46, entry + 46 + nameLength);
      archive.fill(ERASED, localName, localName + view.getUint16(local + 26, true));
      archive.fill(0, data, data + compressedSize);
      erased++;
    }
    entry = next;
  }
  return erased;
}

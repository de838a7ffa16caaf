type Growable = Int32Array | Uint32Array | Float64Array | Uint8Array;

/**
 * `array` itself when it has room for `length` elements, else a copy at least twice as long (so that growing one
 * element at a time copies each element a few times at most), the new elements `fill`.
 */
export function grown<T extends Growable>(array: T, length: number, fill = 0): T {
  if (length <= array.length) return array;
  const larger = new (array.constructor as new (n: number) => T)(Math.max(length, 2 * array.length));
  if (fill !== 0) larger.fill(fill, array.length);
  larger.set(array);
  return larger;
}

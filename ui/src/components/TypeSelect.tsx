import { MEMORY_TYPES } from '../api';
import type { MemoryType } from '../types';

interface Props {
  value: MemoryType | '';
  onChange(type: MemoryType | ''): void;
  /** With a label: an empty choice first (the server classifies the memory). */
  emptyLabel?: string;
}

/** A memory type picked from the list. */
export function TypeSelect({ value, onChange, emptyLabel }: Props) {
  return (
    <label>
      Type
      <select value={value} onChange={(e) => onChange(e.currentTarget.value as MemoryType | '')}>
        {emptyLabel !== undefined && <option value="">{emptyLabel}</option>}
        {MEMORY_TYPES.map((t) => (
          <option key={t}>{t}</option>
        ))}
      </select>
    </label>
  );
}

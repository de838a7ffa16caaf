import type { MemoryType } from './types';

/** Colours the graph draws with (a canvas needs values, not CSS variables); they read on light and dark. */
export const TYPE_COLORS: Record<MemoryType, string> = {
  semantic: '#3b82f6',
  episodic: '#f59e0b',
  procedural: '#10b981',
  working: '#a855f7',
};

const COMMUNITY_COLORS = [
  '#3b82f6',
  '#ef4444',
  '#10b981',
  '#f59e0b',
  '#a855f7',
  '#06b6d4',
  '#ec4899',
  '#84cc16',
  '#f97316',
  '#6366f1',
  '#14b8a6',
  '#e11d48',
];

/** A community's colour; communities past the palette share a neutral one. */
export const communityColor = (index: number | undefined): string =>
  index === undefined ? '#9ca3af' : (COMMUNITY_COLORS[index] ?? '#9ca3af');

export const ACCENT = '#e11d48';

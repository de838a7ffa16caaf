/**
 * The memory types, apart from the schemas built on them: the CLI names them in `memd recall --help` without loading
 * the schema library (NOTES.md, "Tests and CI").
 */
export const MEMORY_TYPES = ['episodic', 'semantic', 'procedural', 'working'] as const;
export type MemoryType = (typeof MEMORY_TYPES)[number];

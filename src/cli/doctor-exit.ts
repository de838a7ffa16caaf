/**
 * `memd doctor`'s exit status: 0 when nothing failed (warnings included); 3 when the configuration is invalid (then
 * nothing else is checked); otherwise the sum of the failed checks' bits below (storage and language model failing:
 * 8 + 32 = 40). 1 and 2 keep their meaning of every command (the doctor itself broke; bad usage).
 */
export const DOCTOR_EXIT = {
  configuration: 3,
  dataDirectory: 4,
  storage: 8,
  embedder: 16,
  languageModel: 32,
  pgvector: 64,
} as const;

import { describe, expect, it } from 'vitest';
import { postgresServerAdvice } from '../../src/cli/doctor-checks.js';
import type { PostgresServerState } from '../../src/storage/inspect.js';

const MiB = 2 ** 20;
/** docs/deploy.md's settings, with 300 MiB of memd's data. */
const recommended: PostgresServerState = {
  sharedBuffersBytes: 2048 * MiB,
  preloadedLibraries: ['pg_stat_statements', 'pg_prewarm'],
  hugePages: 'on',
  dataBytes: 300 * MiB,
};

describe("memd doctor's advice on PostgreSQL's settings", () => {
  it('has nothing to say on the settings of docs/deploy.md, wherever the library is named from', () => {
    expect(postgresServerAdvice(recommended)).toEqual([]);
    expect(postgresServerAdvice({ ...recommended, preloadedLibraries: ['$libdir/pg_prewarm'] })).toEqual([]);
    // Whether `try` got huge pages, PostgreSQL 15 does not say.
    expect(postgresServerAdvice({ ...recommended, hugePages: 'try' })).toEqual([]);
  });

  it("says when memd's tables outgrow shared_buffers, pg_prewarm is not preloaded, or huge pages are off", () => {
    expect(
      postgresServerAdvice({
        sharedBuffersBytes: 128 * MiB,
        preloadedLibraries: [],
        hugePages: 'off',
        dataBytes: 1500 * MiB,
      }),
    ).toEqual([
      "shared_buffers (128 MiB) is smaller than memd's tables and indexes (1,500 MiB): recalls read pages from outside PostgreSQL's cache",
      'pg_prewarm is not in shared_preload_libraries: after a restart recalls start on an empty cache',
      'huge_pages is off: ingest runs about a fifth slower',
    ]);
    expect(postgresServerAdvice({ ...recommended, preloadedLibraries: ['pg_prewarm_extra'] })).toHaveLength(1);
  });
});

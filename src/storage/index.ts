import type { StorageConfig } from '../config.js';
import { openPostgresStorage } from './postgres/open.js';
import type { GiveWay } from '../tasks/foreground.js';
import { openSqliteStorage } from './sqlite/open.js';
import type { SqlStorage } from './sql/storage.js';

export type { Storage } from './types.js';

/**
 * Opens the configured engine at the latest schema. Search indexes warm up separately (`warmUp`). `giveWay` is what
 * the engine's own background work in this process waits for before each step (SQLite's keyword index merge, on the
 * main connection); PostgreSQL does its maintenance in the server.
 */
export function openStorage(config: StorageConfig, dimensions: number, giveWay?: GiveWay): Promise<SqlStorage> {
  return config.kind === 'postgres'
    ? openPostgresStorage({
        url: config.url,
        poolSize: config.poolSize,
        schema: config.schema,
        efSearch: config.efSearch,
        vectorIndex: config.vectorIndex,
        ivfflatProbes: config.ivfflatProbes,
        dimensions,
      })
    : openSqliteStorage({ path: config.path, dimensions, giveWay, vectorIndex: { expansionAdd: config.insertBeam } });
}

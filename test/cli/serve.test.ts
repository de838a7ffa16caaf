import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { spawnServer } from '../support/process.js';
import { client } from '../support/server.js';

const dataDir = mkdtempSync(join(tmpdir(), 'memd-serve-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('memd serve', () => {
  it('serves the API with --host, --port and --data-dir over MEMD_HOST, MEMD_PORT and MEMD_DATA_DIR, and stops cleanly on SIGTERM', async () => {
    // An address this machine does not have and another directory: the server only starts if the options win.
    const env = { MEMD_HOST: '203.0.113.1', MEMD_PORT: '61001', MEMD_DATA_DIR: join(dataDir, 'not-this-one') };
    const server = await spawnServer(env, {
      script: 'src/cli/main.ts',
      args: ['serve', '--host', '127.0.0.1', '--port', '0', '--data-dir', join(dataDir, 'this-one')],
    });
    try {
      expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect((await client(server.url).post('/v1/memories', { content: 'Served by memd serve.' })).status).toBe(201);
      expect(existsSync(join(dataDir, 'this-one', 'memd.sqlite'))).toBe(true);
      expect(existsSync(join(dataDir, 'not-this-one'))).toBe(false);
    } finally {
      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);
    }
  });
});

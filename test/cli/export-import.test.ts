import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemdClient, NotFoundError, type ExportLine } from '../../packages/client/src/index.js';
import { closedPort, finished, runCli, spawnCli } from '../support/cli.js';
import { startServer, type TestServer } from '../support/server.js';

/** `memd export` and `memd import` against a real server: files, stdin/stdout, and what they refuse. */
let server: TestServer;
let memd: MemdClient;
let remote: string[];
const files = mkdtempSync(join(tmpdir(), 'memd-cli-export-'));
const CONTENTS = [
  'Alice prefers green tea in the morning.',
  'Bob drinks black coffee at noon.',
  'The office kettle is broken since Monday.',
];

beforeAll(async () => {
  server = await startServer();
  memd = new MemdClient({ baseUrl: server.url, workspaceId: 'source' });
  remote = ['--url', server.url];
  await memd.workspaces.create({ id: 'source', name: 'Source' });
  const ids = [];
  for (const content of CONTENTS) ids.push((await memd.memories.create({ content, tags: ['drinks'] })).memory.id);
  await memd.associations.create(ids[0]!, { target_id: ids[2]!, relationship: 'related_to' });
});
afterAll(async () => {
  await server.stop();
  rmSync(files, { recursive: true, force: true });
});

/** What a workspace holds, read back through the API: memory contents and association count. */
async function holdings(workspaceId: string): Promise<{ contents: string[]; associations: number }> {
  const lines: ExportLine[] = [];
  for await (const line of memd.workspaces.export(workspaceId)) lines.push(line);
  const contents = lines.flatMap((line) => (line.type === 'memory' ? [line.data.content] : [])).sort();
  return { contents, associations: lines.filter((line) => line.type === 'association').length };
}

describe('memd export and import', () => {
  it('round-trips a workspace through a file', async () => {
    const file = join(files, 'source.ndjson');
    const exported = await runCli(['export', file, '-w', 'source', ...remote]);
    expect(exported).toMatchObject({ code: 0, stdout: '' });
    const lines = readFileSync(file, 'utf8')
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as ExportLine);
    expect(lines.map((line) => line.type)).toEqual(['header', 'memory', 'memory', 'memory', 'association', 'footer']);
    expect(existsSync(`${file}.partial`)).toBe(false);

    const imported = await runCli(['import', file, '-w', 'from-file', '--create', ...remote]);
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stdout).toBe(
      'imported 3 memories and 1 associations into from-file; 0 duplicates skipped, 0 lines refused\n',
    );
    // stderr is a pipe here: no progress bar, only what a log should keep.
    expect(imported.stderr).toBe('created workspace from-file\n');
    expect(await holdings('from-file')).toEqual({ contents: [...CONTENTS].sort(), associations: 1 });

    // Again: every memory is there already.
    const again = await runCli(['import', file, '-w', 'from-file', '--json', ...remote]);
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ imported: 0, skipped_duplicates: 3, errors: 0 });
  });

  it('round-trips through stdout and stdin: memd export | memd import', async () => {
    const exporter = spawnCli(['export', '-w', 'source', ...remote]);
    const importer = spawnCli(['import', '-w', 'piped', '--create', '--json', ...remote]);
    exporter.stdout.pipe(importer.stdin);
    const [exported, imported] = await Promise.all([finished(exporter), finished(importer)]);
    expect(exported.code, exported.stderr).toBe(0);
    expect(imported.code, imported.stderr).toBe(0);
    expect(JSON.parse(imported.stdout)).toEqual({
      imported: 3,
      skipped_duplicates: 0,
      associations_imported: 1,
      errors: 0,
      details: [],
    });
    expect(await holdings('piped')).toEqual({ contents: [...CONTENTS].sort(), associations: 1 });
  });

  it('imports the good lines of a damaged file, says which were refused, and exits 1', async () => {
    const file = join(files, 'damaged.ndjson');
    writeFileSync(
      file,
      [
        JSON.stringify({ type: 'memory', data: { content: 'A line that is fine.' } }),
        '{not json',
        JSON.stringify({ type: 'memory', data: { tags: ['no content'] } }),
      ].join('\n'),
    );
    const result = await runCli(['import', file, '-w', 'damaged', '--create', ...remote]);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('imported 1 memories');
    expect(result.stderr).toMatch(/line 2[^\n]*not valid JSON/);
    expect(result.stderr).toContain('2 lines were not imported');
    expect((await holdings('damaged')).contents).toEqual(['A line that is fine.']);
  });

  it('refuses a workspace that does not exist: no file left from the export, nothing created by the import', async () => {
    const file = join(files, 'missing.ndjson');
    const exported = await runCli(['export', file, '-w', 'no-such-workspace', ...remote]);
    expect(exported.code).toBe(1);
    expect(exported.stderr).toMatch(/no-such-workspace.*not found.*404/);
    expect(existsSync(file) || existsSync(`${file}.partial`)).toBe(false);

    const imported = await runCli(['import', '-w', 'no-such-workspace', ...remote], {
      input: `${JSON.stringify({ type: 'memory', data: { content: 'x' } })}\n`,
    });
    expect(imported).toMatchObject({
      code: 1,
      stderr: expect.stringContaining("workspace 'no-such-workspace' does not exist (--create makes it)"),
    });
    await expect(memd.workspaces.get('no-such-workspace')).rejects.toBeInstanceOf(NotFoundError);
  });

  it('stops without a word when the reader of its stdout goes away (memd export | head)', async () => {
    const lines = Array.from({ length: 3000 }, (_, i) => ({
      type: 'memory',
      data: { content: `Memory ${i} of a workspace too large for a pipe's buffer.` },
    }));
    await memd.workspaces.create({ id: 'large', name: 'Large' });
    expect(await memd.workspaces.import('large', lines)).toMatchObject({ imported: 3000 });
    const exporter = spawnCli(['export', '-w', 'large', ...remote]);
    exporter.stdout.once('data', () => exporter.stdout.destroy());
    expect(await finished(exporter)).toMatchObject({ code: 0, stderr: '' });
  });

  it('says where it could not connect', async () => {
    const result = await runCli([
      'export',
      '-w',
      'source',
      '--url',
      `http://127.0.0.1:${await closedPort()}`,
      '--timeout',
      '5',
    ]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/ECONNREFUSED[\s\S]*is the server running\? --url or MEMD_URL/);
  });
});

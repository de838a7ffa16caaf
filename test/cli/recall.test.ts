import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemdClient } from '../../packages/client/src/index.js';
import { runCli } from '../support/cli.js';
import { startServer, type TestServer } from '../support/server.js';

let server: TestServer;
let remote: string[];
let ids: Record<string, string>;

beforeAll(async () => {
  server = await startServer();
  remote = ['--url', server.url, '-w', 'recall-ws'];
  const memd = new MemdClient({ baseUrl: server.url, workspaceId: 'recall-ws' });
  await memd.workspaces.create({ id: 'recall-ws', name: 'Recall' });
  ids = {
    alice: (await memd.memories.create({ content: 'Alice prefers green tea in the morning.', tags: ['alice'] })).memory
      .id,
    bob: (await memd.memories.create({ content: 'Bob drinks green tea after lunch.', tags: ['bob'] })).memory.id,
  };
});
afterAll(() => server.stop());

const recalled = (stdout: string): string[] =>
  (JSON.parse(stdout) as { memories: Array<{ id: string }> }).memories.map((memory) => memory.id);

describe('memd recall', () => {
  it('prints the server’s answer with --json', async () => {
    const result = await runCli(['recall', 'who', 'prefers', 'green', 'tea', '--json', ...remote]);
    expect(result.code, result.stderr).toBe(0);
    const answer = JSON.parse(result.stdout);
    expect(answer).toMatchObject({ total_count: 2, mode_used: 'rag', cached: false });
    expect(answer.memories[0]).toMatchObject({
      id: ids.alice,
      content: 'Alice prefers green tea in the morning.',
      tags: ['alice'],
    });
  });

  it('prints a table of what it recalled, with ids to act on', async () => {
    const result = await runCli(['recall', 'green tea', ...remote]);
    expect(result.code, result.stderr).toBe(0);
    for (const id of Object.values(ids)) expect(result.stdout).toContain(id);
    expect(result.stdout).toContain('Alice prefers green tea in the morning.');
    expect(result.stdout).toMatch(/^2 of 2 memories \(\d+ ms(, cached)?\)$/m);
  });

  it('passes the filters and the limit on to the server', async () => {
    expect(recalled((await runCli(['recall', 'green tea', '--tag', 'bob', '--json', ...remote])).stdout)).toEqual([
      ids.bob,
    ]);
    expect(recalled((await runCli(['recall', 'green tea', '--limit', '1', '--json', ...remote])).stdout)).toHaveLength(
      1,
    );
    expect(
      recalled((await runCli(['recall', 'green tea', '--type', 'procedural', '--json', ...remote])).stdout),
    ).toEqual([]);
    const none = await runCli(['recall', 'green tea', '--type', 'procedural', ...remote]);
    expect(none).toMatchObject({ code: 0, stdout: expect.stringMatching(/^nothing recalled/) });
  });

  it('shows the server’s refusal of a bad option, field by field, and exits 1', async () => {
    const result = await runCli(['recall', 'green tea', '--tolerance', 'lenient', ...remote]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/validation_error\)\n {2}\/body\/tolerance: /);
  });
});

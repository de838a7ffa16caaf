import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ForbiddenError, MemdClient, UnauthorizedError } from '../../packages/client/src/index.js';
import { runCli } from '../support/cli.js';
import { startTwoTeams, type TwoTeams } from '../support/server.js';

const ADMIN_KEY = 'admin-secret-for-tests';
let teams: TwoTeams;
let asAdmin: string[];

beforeAll(async () => {
  teams = await startTwoTeams();
  asAdmin = ['--url', teams.server.url, '--api-key', ADMIN_KEY];
});
afterAll(() => teams.server.stop());

describe('memd keys', () => {
  it('creates a key that reaches its workspace only, lists it without its secret, and revokes it', async () => {
    const created = await runCli(['keys', 'create', 'ci runner', '-w', 'team-b', ...asAdmin]);
    expect(created.code, created.stderr).toBe(0);
    const secret = created.stdout.trim();
    expect(secret).toMatch(/\S{20,}/);
    const id = created.stderr.match(/created (key_\w+) \(ci runner\) for team-b/)?.[1];
    expect(id).toBeDefined();

    const withKey = new MemdClient({ baseUrl: teams.server.url, apiKey: secret });
    await withKey.memories.create({ content: 'Written with the new key.', workspace_id: 'team-b' });
    await expect(
      withKey.memories.create({ content: 'Not its workspace.', workspace_id: 'team-a' }),
    ).rejects.toBeInstanceOf(ForbiddenError);

    const listed = await runCli(['keys', 'list', '--json', ...asAdmin]);
    expect(listed.code).toBe(0);
    const listedKey = (
      JSON.parse(listed.stdout) as Array<{ id: string; name: string; workspaces: string[]; key_prefix: string }>
    ).find((key) => key.id === id);
    expect(listedKey).toMatchObject({ name: 'ci runner', workspaces: ['team-b'] });
    expect(secret.startsWith(listedKey!.key_prefix)).toBe(true);
    expect(listed.stdout).not.toContain(secret);
    const table = await runCli(['keys', 'list', ...asAdmin]);
    expect(table.stdout).toMatch(new RegExp(`${id}.*ci runner.*team-b`));

    expect(await runCli(['keys', 'revoke', id!, ...asAdmin])).toMatchObject({ code: 0, stdout: `revoked ${id}\n` });
    await expect(withKey.memories.list({ workspace_id: 'team-b' })).rejects.toBeInstanceOf(UnauthorizedError);
    expect(
      JSON.parse((await runCli(['keys', 'list', '--json', ...asAdmin])).stdout).map((key: { id: string }) => key.id),
    ).not.toContain(id);
  });

  it('takes the admin key from MEMD_API_KEY, or from MEMD_ADMIN_KEY', async () => {
    for (const variable of ['MEMD_API_KEY', 'MEMD_ADMIN_KEY']) {
      const result = await runCli(['keys', 'list', '--json', '--url', teams.server.url], {
        env: { [variable]: ADMIN_KEY },
      });
      expect(result.code, `${variable}: ${result.stderr}`).toBe(0);
    }
  });

  it('is refused without the admin key, and a create needs a workspace', async () => {
    const anonymous = await runCli(['keys', 'list', '--url', teams.server.url]);
    expect(anonymous).toMatchObject({ code: 1, stderr: expect.stringContaining('401 unauthorized') });
    const noWorkspace = await runCli(['keys', 'create', 'x', ...asAdmin]);
    expect(noWorkspace).toMatchObject({
      code: 2,
      stderr: expect.stringContaining("required option '-w, --workspace <id>' not specified"),
    });
  });
});

import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli/program.js';
import { runCli } from '../support/cli.js';

/** Every command and subcommand the program defines, as the words that name it. */
function commandPaths(command: Command, path: string[] = []): string[][] {
  return [path, ...command.commands.flatMap((sub) => commandPaths(sub, [...path, sub.name()]))];
}

describe('memd --help', () => {
  const paths = commandPaths(buildProgram());

  it('names the commands the issue asks for', () => {
    expect(paths.map((path) => path.join(' '))).toEqual(
      expect.arrayContaining([
        'serve',
        'peer',
        'mcp',
        'export',
        'import',
        'recall',
        'keys',
        'keys create',
        'keys list',
        'keys revoke',
        'reembed',
        'doctor',
      ]),
    );
  });

  it('prints the usage of every command and exits 0', async () => {
    const results = await Promise.all(paths.map((path) => runCli([...path, '--help'])));
    results.forEach((result, i) => {
      const name = ['memd', ...paths[i]!].join(' ');
      expect(result.code, name).toBe(0);
      expect(result.stdout, name).toMatch(new RegExp(`^Usage: ${name}( |$)`, 'm'));
      expect(result.stdout, name).toContain('-h, --help');
    });
    // Each leaf command documents its own options, not only --help.
    const recall = results[paths.findIndex((path) => path.join(' ') === 'recall')]!.stdout;
    expect(recall).toMatch(/--json/);
    expect(recall).toMatch(/--url <url>[\s\S]*env:\s+MEMD_URL/);
    const serve = results[paths.findIndex((path) => path.join(' ') === 'serve')]!.stdout;
    expect(serve).toMatch(/--port <number>\s+listen port \(overrides MEMD_PORT\)/);
  });

  it('refuses what it does not know with exit status 2 and a hint', async () => {
    const unknownCommand = await runCli(['frobnicate']);
    expect(unknownCommand).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/unknown command 'frobnicate'[\s\S]*--help/),
    });
    const unknownOption = await runCli(['doctor', '--colour', 'blue']);
    expect(unknownOption).toMatchObject({ code: 2, stderr: expect.stringContaining("unknown option '--colour'") });
    const missingQuery = await runCli(['recall']);
    expect(missingQuery).toMatchObject({
      code: 2,
      stderr: expect.stringContaining("missing required argument 'query'"),
    });
  });
});

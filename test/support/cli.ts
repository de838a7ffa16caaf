import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The environment of the test process without memd's own variables, so that only what a test gives counts. */
function cleanEnvironment(env: Record<string, string>): Record<string, string> {
  const kept = Object.entries(process.env).filter(([name]) => !name.startsWith('MEMD_'));
  return { ...Object.fromEntries(kept), MEMD_LOG_LEVEL: 'silent', ...env };
}

/** `memd <args>` as a user runs it: bin/memd.js in its own process, from the repository's root. */
export function spawnCli(args: readonly string[], env: Record<string, string> = {}): ChildProcessWithoutNullStreams {
  return spawn(process.execPath, ['bin/memd.js', ...args], { cwd: ROOT, env: cleanEnvironment(env) });
}

/** Collects what a spawned command writes, and its exit status. */
export function finished(child: ChildProcessWithoutNullStreams): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Runs `memd <args>` to its end, with `input` on stdin (none: stdin closed at once). */
export function runCli(
  args: readonly string[],
  options: { env?: Record<string, string>; input?: string } = {},
): Promise<CliResult> {
  const child = spawnCli(args, options.env);
  const result = finished(child);
  child.stdin.end(options.input);
  return result;
}

/** A port nothing listens on: one the system just handed out and took back. */
export async function closedPort(): Promise<number> {
  const listener = createServer().listen(0, '127.0.0.1');
  await once(listener, 'listening');
  const { port } = listener.address() as AddressInfo;
  await new Promise((resolve) => listener.close(resolve));
  return port;
}

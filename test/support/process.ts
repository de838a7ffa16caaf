import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  /** Resolves with the exit code or signal. */
  exited: Promise<number | string | null>;
}

export interface SpawnOptions {
  /** The entry to run (default: memd itself). */
  script?: string;
  args?: string[];
  /** The log message that carries the URL once the process listens. */
  listening?: string;
}

/** memd (or another entry, such as the peer) as a separate process (`node --import tsx <script>`), for crash and restart tests. */
export function spawnServer(env: Record<string, string>, options: SpawnOptions = {}): Promise<ServerProcess> {
  const { script = 'src/main.ts', args = [], listening = 'memd listening' } = options;
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
    cwd: ROOT,
    env: {
      ...process.env,
      MEMD_HOST: '127.0.0.1',
      MEMD_PORT: '0',
      MEMD_EMBEDDING_PROVIDER: 'hash',
      MEMD_LOG_LEVEL: 'info',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | string | null>((resolve) =>
    child.once('exit', (code, signal) => resolve(code ?? signal)),
  );
  return new Promise((resolve, reject) => {
    let output = '';
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = output.match(new RegExp(`"url":"(http://[^"]+)"[^\\n]*"msg":"${listening}"`));
      if (match) {
        child.stdout!.off('data', onData);
        child.stdout!.resume();
        resolve({ url: match[1]!, child, exited });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    void exited.then((code) => reject(new Error(`${script} exited (${code}) before listening:\n${output}`)));
  });
}

/** A process's resident memory now, in bytes (Linux: VmRSS of /proc/<pid>/status). */
export const residentBytes = (pid: number): number =>
  Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) * 1024;

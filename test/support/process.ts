import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  /** Resolves with the exit code or signal. */
  exited: Promise<number | string | null>;
}

/** memd as a separate process (`node --import tsx src/main.ts`), for crash and restart tests. */
export function spawnServer(env: Record<string, string>): Promise<ServerProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, MEMD_HOST: '127.0.0.1', MEMD_PORT: '0', MEMD_EMBEDDING_PROVIDER: 'hash', MEMD_LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | string | null>((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal)));
  return new Promise((resolve, reject) => {
    let output = '';
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = output.match(/"url":"(http:\/\/[^"]+)"[^\n]*"msg":"memd listening"/);
      if (match) {
        child.stdout!.off('data', onData);
        child.stdout!.resume();
        resolve({ url: match[1]!, child, exited });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    void exited.then((code) => reject(new Error(`memd exited (${code}) before listening:\n${output}`)));
  });
}

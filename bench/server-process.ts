import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

export interface BenchServer {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

/** The built server (`node dist/src/main.js`, as `npm start` runs it) in its own process, so its RSS is its own. */
export function startBenchServer(env: Record<string, string>): Promise<BenchServer> {
  const child: ChildProcess = spawn(process.execPath, ['dist/src/main.js'], {
    cwd: ROOT,
    env: { ...process.env, MEMD_HOST: '127.0.0.1', MEMD_PORT: '0', MEMD_LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const url = output.match(/"url":"(http:\/\/[^"]+)"/)?.[1];
      if (url) {
        output = '';
        resolve({
          url,
          pid: child.pid!,
          async stop() {
            child.kill('SIGTERM');
            await exited;
          },
        });
      }
    });
    void exited.then(() => reject(new Error(`server exited before listening: ${output}`)));
  });
}

export async function waitReady(url: string): Promise<void> {
  for (;;) {
    const res = await fetch(`${url}/health/ready`).catch(() => null);
    if (res?.status === 200) return;
    await new Promise((r) => setTimeout(r, 100));
  }
}

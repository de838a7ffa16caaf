import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

export interface BenchServer {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

/** A port nobody listens on now (the server gets it next; a race is possible in principle, not on a bench machine). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
    probe.once('error', reject);
  });
}

/**
 * The built server (`node dist/src/main.js`, as `npm start` runs it) in its own process, so its RSS is its own.
 * Resolves once it listens (`/health`); it logs warnings only, so logging costs nothing measured.
 * `root`: the checkout whose build runs (another one, to compare two versions in one run).
 * BENCH_SERVER_NODE_ARGS passes flags to its Node (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`: Node refuses those
 * in NODE_OPTIONS).
 */
export async function startBenchServer(env: Record<string, string>, root: string = ROOT): Promise<BenchServer> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const nodeArgs = process.env.BENCH_SERVER_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
  const child = spawn(process.execPath, [...nodeArgs, 'dist/src/main.js'], {
    cwd: root,
    env: { ...process.env, MEMD_LOG_LEVEL: 'warn', ...env, MEMD_HOST: '127.0.0.1', MEMD_PORT: String(port) },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let gone = false;
  void exited.then(() => (gone = true));
  for (;;) {
    if (gone) throw new Error(`the server exited before listening (code ${child.exitCode})`);
    const res = await fetch(`${url}/health`).catch(() => null);
    if (res?.ok) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    url,
    pid: child.pid!,
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

export async function waitReady(url: string): Promise<void> {
  for (;;) {
    const res = await fetch(`${url}/health/ready`).catch(() => null);
    if (res?.status === 200) return;
    await new Promise((r) => setTimeout(r, 100));
  }
}

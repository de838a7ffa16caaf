import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnServer, type ServerProcess } from './process.js';
import { client, type Client } from './server.js';

export interface NodeProcess extends ServerProcess {
  name: string;
  api: Client;
}

export interface NodeGroup {
  nodes: NodeProcess[];
  /** Stops every node still running (SIGTERM, a clean shutdown) and removes their data directories. */
  stop(): Promise<void>;
}

/**
 * memd API nodes as separate processes, started at once, each with a data directory of its own: what `env` gives
 * them in common (one Postgres database and schema) is all they share. `envFor` adds per-node settings.
 */
export async function startNodes(
  names: readonly string[],
  env: Record<string, string>,
  envFor: (name: string) => Record<string, string> = () => ({}),
): Promise<NodeGroup> {
  const dirs = names.map(() => mkdtempSync(join(tmpdir(), 'memd-node-')));
  const started = await Promise.allSettled(
    names.map((name, i) => spawnServer({ ...env, MEMD_DATA_DIR: dirs[i]!, ...envFor(name) })),
  );
  const nodes = started.flatMap((result, i) =>
    result.status === 'fulfilled' ? [{ ...result.value, name: names[i]!, api: client(result.value.url) }] : [],
  );
  const stop = async () => {
    await Promise.all(
      nodes.map(async (node) => {
        if (node.child.exitCode === null && node.child.signalCode === null) node.child.kill('SIGTERM');
        await node.exited;
      }),
    );
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  };
  const failed = started.find((result): result is PromiseRejectedResult => result.status === 'rejected');
  if (failed) {
    await stop();
    throw failed.reason;
  }
  return { nodes, stop };
}

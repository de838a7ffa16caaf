/**
 * npm run bench:mcp -- [--rounds 500] [--warmup 50] [--memories 2000] [--embedder hash|local]
 *
 * Round trips of `remember` and `recall` as an agent makes them, through each transport, against the built server
 * (`node dist/src/main.js`) in its own process:
 * - plain HTTP: POST /v1/memories and POST /v1/memories/recall (fetch, keep-alive);
 * - MCP over streamable HTTP: the SDK's client calling the tools at /mcp of the same server;
 * - MCP over stdio, relayed: `node dist/src/mcp/stdio-main.js --url …` (stdio, then streamable HTTP to the same server);
 * - MCP over stdio, in process: `node dist/src/mcp/stdio-main.js --data-dir …` (memd itself in the stdio process, on a
 *   copy of the same corpus; no HTTP at all).
 * One round calls every transport (in a rotating order): a remember of a new sentence, then a recall of a question,
 * so each recall follows a write (and the recall cache is off). The first `warmup` rounds are not counted.
 * With the `hash` embedder (the default) embedding costs next to nothing, so what differs is the transport.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { machineLine, percentile } from './machine.js';
import { memories, questions } from './recall/corpus.js';
import { startBenchServer, waitReady } from './server-process.js';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '500' },
    warmup: { type: 'string', default: '50' },
    memories: { type: 'string', default: '2000' },
    embedder: { type: 'string', default: 'hash' },
  },
});
const ROUNDS = Number(values.rounds);
const WARMUP = Number(values.warmup);
const CORPUS = Number(values.memories);
const WORKSPACE = 'bench';
const load = (): string =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(' / ');

interface Transport {
  name: string;
  remember(content: string): Promise<void>;
  recall(query: string): Promise<void>;
  close(): Promise<void>;
}

async function post(url: string, body: unknown): Promise<unknown> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`POST ${url}: ${res.status} ${await res.text()}`);
  return res.json();
}

function plainHttp(url: string): Transport {
  return {
    name: 'plain HTTP',
    remember: async (content) => void (await post(`${url}/v1/memories`, { workspace_id: WORKSPACE, content })),
    recall: async (query) => void (await post(`${url}/v1/memories/recall`, { workspace_id: WORKSPACE, query })),
    close: async () => {},
  };
}

/** An MCP transport: the SDK's client, failing loudly on a tool error (a benchmark of failures measures nothing). */
async function mcp(name: string, transport: StreamableHTTPClientTransport | StdioClientTransport): Promise<Transport> {
  const client = new Client({ name: 'memd-bench', version: '1' });
  await client.connect(transport);
  const call = async (tool: string, args: Record<string, unknown>) => {
    const result = (await client.callTool({
      name: tool,
      arguments: { workspace_id: WORKSPACE, ...args },
    })) as CallToolResult;
    if (result.isError) throw new Error(`${name} ${tool}: ${JSON.stringify(result.content)}`);
  };
  return {
    name,
    remember: (content) => call('remember', { content }),
    recall: (query) => call('recall', { query }),
    close: () => client.close(),
  };
}

const stdio = (args: string[], env: Record<string, string>) =>
  new StdioClientTransport({
    command: process.execPath,
    args: ['dist/src/mcp/stdio-main.js', ...args],
    env: { ...(process.env as Record<string, string>), MEMD_LOG_LEVEL: 'warn', ...env },
    stderr: 'inherit',
  });

async function seed(url: string, sentences: readonly string[]): Promise<void> {
  for (let i = 0; i < sentences.length; i += 500) {
    const operations = sentences.slice(i, i + 500).map((content) => ({ op: 'create', content }));
    await post(`${url}/v1/memories/batch`, { workspace_id: WORKSPACE, operations });
  }
}

async function main(): Promise<void> {
  const env = {
    MEMD_EMBEDDING_PROVIDER: values.embedder!,
    MEMD_RECALL_CACHE_ENTRIES: '0',
    MEMD_EMBEDDING_WORKERS: '1',
  };
  const corpus = memories(CORPUS + (WARMUP + ROUNDS) * 4);
  const asked = questions(200);
  const serverDir = mkdtempSync(join(tmpdir(), 'memd-bench-mcp-'));
  const localDir = mkdtempSync(join(tmpdir(), 'memd-bench-mcp-local-'));
  console.log(`bench:mcp on ${machineLine()}`);
  console.log(
    `load before (1/5/15 min): ${load()}; embedder ${values.embedder}; ${CORPUS} memories; ${ROUNDS} rounds after ${WARMUP} of warm-up`,
  );

  // The in-process stdio server gets the same corpus, written by a server that then stops (one process per data directory).
  const seeder = await startBenchServer({ ...env, MEMD_DATA_DIR: localDir });
  await waitReady(seeder.url);
  await seed(seeder.url, corpus.slice(0, CORPUS));
  await seeder.stop();

  const server = await startBenchServer({ ...env, MEMD_DATA_DIR: serverDir });
  const transports: Transport[] = [];
  try {
    await waitReady(server.url);
    await seed(server.url, corpus.slice(0, CORPUS));
    transports.push(
      plainHttp(server.url),
      await mcp('MCP streamable HTTP', new StreamableHTTPClientTransport(new URL('/mcp', server.url))),
      await mcp('MCP stdio (relay)', stdio(['--url', server.url], env)),
      await mcp('MCP stdio (in process)', stdio(['--data-dir', localDir], env)),
    );
    const samples = new Map(transports.map((t) => [t.name, { remember: [] as number[], recall: [] as number[] }]));
    let next = CORPUS;
    for (let round = 0; round < WARMUP + ROUNDS; round++) {
      for (let k = 0; k < transports.length; k++) {
        const transport = transports[(round + k) % transports.length]!;
        const content = corpus[next++]!;
        const query = asked[(round * transports.length + k) % asked.length]!;
        let started = performance.now();
        await transport.remember(content);
        const remembered = performance.now() - started;
        started = performance.now();
        await transport.recall(query);
        const recalled = performance.now() - started;
        if (round >= WARMUP) {
          samples.get(transport.name)!.remember.push(remembered);
          samples.get(transport.name)!.recall.push(recalled);
        }
      }
    }

    const ms = (value: number) => value.toFixed(2);
    const signed = (value: number) => `${value < 0 ? '-' : '+'}${ms(Math.abs(value))}`;
    const stats = (values: number[]) => {
      const sorted = [...values].sort((a, b) => a - b);
      return { p50: percentile(sorted, 50), p99: percentile(sorted, 99) };
    };
    const plain = {
      remember: stats(samples.get('plain HTTP')!.remember),
      recall: stats(samples.get('plain HTTP')!.recall),
    };
    console.log(
      '\n| transport | remember p50 | remember p99 | recall p50 | recall p99 | p50 over plain HTTP (remember / recall) |',
    );
    console.log('|---|---|---|---|---|---|');
    for (const [name, { remember, recall }] of samples) {
      const r = stats(remember);
      const q = stats(recall);
      const over =
        name === 'plain HTTP' ? '' : `${signed(r.p50 - plain.remember.p50)} / ${signed(q.p50 - plain.recall.p50)} ms`;
      console.log(`| ${name} | ${ms(r.p50)} ms | ${ms(r.p99)} ms | ${ms(q.p50)} ms | ${ms(q.p99)} ms | ${over} |`);
    }
    console.log(`\nload after (1/5/15 min): ${load()}`);
  } finally {
    for (const transport of transports) await transport.close().catch(() => undefined);
    await server.stop();
    rmSync(serverDir, { recursive: true, force: true });
    rmSync(localDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

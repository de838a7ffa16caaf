import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnCli } from '../support/cli.js';
import { startServer, type TestServer } from '../support/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

describe('memd mcp', () => {
  it('speaks MCP over stdin/stdout, forwarding to a running server: initialize, then its tools', async () => {
    const child = spawnCli(['mcp', '--url', server.url]);
    const replies = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
    const call = async (id: number, method: string, params: object) => {
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
      for (;;) {
        const { value, done } = await replies.next();
        if (done) throw new Error('memd mcp closed stdout');
        const message = JSON.parse(value as string) as { id?: number; result?: Record<string, unknown> };
        if (message.id === id) return message.result!;
      }
    };
    try {
      const initialized = await call(1, 'initialize', {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 'memd-cli-test', version: '0' },
      });
      expect(initialized).toMatchObject({
        serverInfo: { name: expect.any(String) },
        capabilities: { tools: expect.any(Object) },
      });
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
      const { tools } = (await call(2, 'tools/list', {})) as { tools: Array<{ name: string }> };
      expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining([expect.stringMatching(/recall/)]));
    } finally {
      child.kill('SIGTERM');
    }
  });
});

import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BadRequestError, MemdClient, NotFoundError, type ExportLine } from '../../packages/client/src/index.js';
import { startServer, type TestServer } from '../support/server.js';

let server: TestServer;
let memd: MemdClient;

beforeAll(async () => {
  server = await startServer();
  memd = new MemdClient({ baseUrl: server.url });
});
afterAll(() => server.stop());

const collect = async <T>(lines: AsyncIterable<T>): Promise<T[]> => {
  const all: T[] = [];
  for await (const line of lines) all.push(line);
  return all;
};
const memoriesOf = (lines: ExportLine[]) => lines.flatMap((line) => (line.type === 'memory' ? [line.data] : []));

describe('streaming export and import', () => {
  beforeAll(async () => {
    const source = memd.withWorkspace('source');
    await memd.workspaces.create({ id: 'source', name: 'Source' });
    const ids: string[] = [];
    for (let i = 0; i < 25; i++)
      ids.push(
        (await source.memories.create({ content: `Fact number ${i} about the system`, tags: [`t${i % 3}`] })).memory.id,
      );
    await source.associations.create(ids[0]!, { target_id: ids[1]!, relationship: 'related_to', strength: 0.7 });
  });

  it('export streams header, memories, associations and footer; import of that stream copies the workspace', async () => {
    const exported = await collect(memd.workspaces.export('source'));
    expect(exported[0]).toMatchObject({
      type: 'header',
      workspace_id: 'source',
      total_memories: 25,
      total_associations: 1,
    });
    expect(exported.at(-1)).toEqual({ type: 'footer', memories_exported: 25, associations_exported: 1 });
    expect(exported.filter((line) => line.type === 'association')).toHaveLength(1);

    await memd.workspaces.create({ id: 'copy', name: 'Copy' });
    const report = await memd.workspaces.import('copy', memd.workspaces.export('source'));
    expect(report).toMatchObject({ imported: 25, skipped_duplicates: 0, associations_imported: 1, errors: 0 });

    const copied = await collect(memd.workspaces.export('copy'));
    const contents = (lines: ExportLine[]) =>
      memoriesOf(lines)
        .map((m) => [m.content, m.tags, m.content_hash])
        .sort();
    expect(contents(copied)).toEqual(contents(exported));
    expect((await memd.workspaces.import('copy', memd.workspaces.export('source'))).skipped_duplicates).toBe(25);
  });

  it('stopping early cancels the export, and the server goes on answering', async () => {
    const first: ExportLine[] = [];
    for await (const line of memd.workspaces.export('source', { include_associations: false })) {
      first.push(line);
      if (first.length === 3) break;
    }
    expect(first.map((line) => line.type)).toEqual(['header', 'memory', 'memory']);
    expect((await memd.workspaces.get('source')).workspace.id).toBe('source');
  });

  it('imports lines given as objects and text, a byte stream, a Node stream (a file read), or the JSON form', async () => {
    await memd.workspaces.create({ id: 'sink', name: 'Sink' });
    const lines = [
      { type: 'header', version: '1' },
      { type: 'memory', data: { content: 'From an object line' } },
      JSON.stringify({ type: 'memory', data: { content: 'From a text line' } }),
    ];
    expect(await memd.workspaces.import('sink', lines)).toMatchObject({ imported: 2, errors: 0 });

    const bytes = new TextEncoder().encode(
      `${JSON.stringify({ type: 'memory', data: { content: 'From a byte stream' } })}\nnot json\n`,
    );
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes.slice(0, 10));
        controller.enqueue(bytes.slice(10));
        controller.close();
      },
    });
    const report = await memd.workspaces.import('sink', stream);
    expect(report).toMatchObject({ imported: 1, errors: 1 });
    expect(report.details[0]).toContain('not valid JSON');

    const file = Readable.from([
      Buffer.from('{"type":"memory","data":{"content":"From a No'),
      Buffer.from('de stream"}}\n'),
    ]);
    expect(await memd.workspaces.import('sink', file)).toMatchObject({ imported: 1, errors: 0 });

    expect(
      await memd.workspaces.import('sink', {
        data: { memories: [{ content: 'From the JSON form' }], associations: [] },
      }),
    ).toMatchObject({ imported: 1 });
    const contents = memoriesOf(await collect(memd.workspaces.export('sink'))).map((m) => m.content);
    expect(contents.sort()).toEqual([
      'From a Node stream',
      'From a byte stream',
      'From a text line',
      'From an object line',
      'From the JSON form',
    ]);
  });
});

describe('the session header', () => {
  it('withSession sends X-Session-ID: writes belong to the session, its context and its user', async () => {
    const { session } = await memd.sessions.start({ workspace_id: 'sessions', context_id: 'support', user_id: 'u-7' });
    const inSession = memd.withSession(session.id);
    const { memory } = await inSession.memories.create({ content: 'The customer asked for a refund' });
    expect(memory).toMatchObject({
      workspace_id: 'sessions',
      session_id: session.id,
      context_id: 'support',
      user_id: 'u-7',
    });
    const outside = (await memd.withWorkspace('sessions').memories.create({ content: 'Written outside the session' }))
      .memory;
    expect(outside).toMatchObject({ session_id: null, context_id: '_default', user_id: null });
    expect(
      (await memd.withWorkspace('sessions').memories.list({ session_id: session.id })).memories.map((m) => m.id),
    ).toEqual([memory.id]);
  });

  it('the context sandbox needs the session: BadRequestError without it, NotFoundError for an unknown one', async () => {
    await expect(memd.context.execute({ code: '1 + 1' })).rejects.toBeInstanceOf(BadRequestError);
    await expect(memd.withSession('sess_nobody').context.execute({ code: '1 + 1' })).rejects.toBeInstanceOf(
      NotFoundError,
    );
  });
});

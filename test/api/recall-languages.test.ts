import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MemdClient } from '../../packages/client/src/index.js';
import { memdClient, startServer, type TestServer } from '../support/server.js';

let server: TestServer;
let memd: MemdClient;
let workspace: string;

const NOTES = [
  '我喜欢喝咖啡，每天早上一杯。',
  '我的女儿在北京大学读书。',
  '東京の会議は来週の火曜日です。',
  '私は寿司が大好きです。',
  '저는 매일 아침 달리기를 합니다.',
  "J'ai rendez-vous chez le médecin jeudi à 14h.",
  'Mi hermano vive en Málaga y trabaja como enfermero.',
  'Я люблю читать книги по вечерам.',
  'The user prefers résumé templates with a café theme.',
  'Anna waters the garden on Sundays.',
];

beforeAll(async () => {
  server = await startServer();
  memd = memdClient(server.url);
  workspace = (await memd.workspaces.create({ id: 'languages', name: 'languages' })).workspace.id;
  await memd.memories.batch({
    workspace_id: workspace,
    operations: NOTES.map((content) => ({ op: 'create' as const, content })),
  });
});
afterAll(() => server.stop());

describe('recall in languages written without spaces, and with or without accents', () => {
  it.each([
    { query: '咖啡', found: NOTES[0] },
    { query: '我女儿在哪里上学？', found: NOTES[1] },
    { query: '"北京大学"', found: NOTES[1] },
    { query: '会議はいつですか', found: NOTES[2] },
    { query: '寿司', found: NOTES[3] },
    { query: '달리기', found: NOTES[4] },
    { query: 'medecin', found: NOTES[5] },
    { query: 'médecin', found: NOTES[5] },
    { query: 'enfermero Malaga', found: NOTES[6] },
    { query: 'книги', found: NOTES[7] },
    { query: 'resume templates', found: NOTES[8] },
  ])('finds "$found" first by its words for "$query"', async ({ query, found }) => {
    const answer = await memd.memories.recall({ workspace_id: workspace, query, limit: 3 });
    const [top] = answer.memories;
    expect(top!.content).toBe(found);
    expect(top!.match_signals).toContain('keyword');
  });

  it('does not take a word for another that shares one of its characters', async () => {
    // 咖喱 (curry) and 咖啡 (coffee) share 咖: the index holds single characters too, but a word is asked by its pairs.
    const answer = await memd.memories.recall({ workspace_id: workspace, query: '咖喱', limit: 10, min_relevance: 0 });
    const coffee = answer.memories.find((m) => m.content === NOTES[0]);
    expect(coffee).toBeDefined();
    expect(coffee!.match_signals).not.toContain('keyword');
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MemdClient } from '../../packages/client/src/index.js';
import { memdClient, startServer, type TestServer, workspaceOfNotes } from '../support/server.js';

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
  'ฉันชอบกินข้าวผัดกับเพื่อนที่กรุงเทพ',
  'ຂ້ອຍມັກກິນເຂົ້າໜຽວທຸກມື້',
  'ខ្ញុំចូលចិត្តអានសៀវភៅនៅពេលល្ងាច',
  'ကျွန်တော် မနက်တိုင်း လက်ဖက်ရည်သောက်တယ်',
  'Maya’s trip went everywhere—even to “Porto” in the rain.',
];

beforeAll(async () => {
  server = await startServer();
  memd = memdClient(server.url);
  workspace = await workspaceOfNotes(memd, 'languages', NOTES);
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
    { query: 'ข้าวผัด', found: NOTES[10] },
    { query: 'กรุงเทพ', found: NOTES[10] },
    { query: 'ເຂົ້າໜຽວ', found: NOTES[11] },
    { query: 'សៀវភៅ', found: NOTES[12] },
    { query: 'လက်ဖက်ရည်', found: NOTES[13] },
    // A dash, quotation marks and an apostrophe beyond ASCII: letters to PostgreSQL's parser under LC_CTYPE C.
    { query: 'Porto', found: NOTES[14] },
    { query: 'everywhere', found: NOTES[14] },
  ])('finds "$found" first by its words for "$query"', async ({ query, found }) => {
    const answer = await memd.memories.recall({ workspace_id: workspace, query, limit: 3 });
    const [top] = answer.memories;
    expect(top!.content).toBe(found);
    expect(top!.match_signals).toContain('keyword');
  });

  it('does not take a word for another that shares one of its characters', async () => {
    // 咖喱 (curry) and 咖啡 (coffee) share 咖: the index holds single characters too, but a word is asked by its pairs.
    const answer = await memd.memories.recall({
      workspace_id: workspace,
      query: '咖喱',
      limit: NOTES.length,
      min_relevance: 0,
    });
    const coffee = answer.memories.find((m) => m.content === NOTES[0]);
    expect(coffee).toBeDefined();
    expect(coffee!.match_signals).not.toContain('keyword');
  });

  it('reads a name with an accent as its words, and not as another word asked about it', async () => {
    const ws = (await memd.workspaces.create({ id: 'languages-name', name: 'name' })).workspace.id;
    const sled = 'On 1 December 2023, Valter Ekström tested an antique sled at school in Izmir.';
    const others = [
      'Valter Ekström likes beekeeping and chess.',
      'Valter Ekström works as a potter in Riga.',
      'Valter Ekström works as a chemist in Fukuoka.',
    ];
    await memd.memories.batch({
      workspace_id: ws,
      operations: [sled, ...others].map((content) => ({ op: 'create' as const, content })),
    });
    const answer = await memd.memories.recall({ workspace_id: ws, query: 'Valter Ekström sled Izmir', limit: 4 });
    expect(answer.memories[0]!.content).toBe(sled);
    expect(answer.memories[0]!.match_signals).toContain('entity');
    // The entity arm finds the person's memories that hold another word of the query: "ekstrom" is the name's own.
    const alsoByEntity = answer.memories.slice(1).filter((m) => m.match_signals.includes('entity'));
    expect(answer.memories.length).toBeGreaterThan(1);
    expect(alsoByEntity).toEqual([]);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MemdClient } from '../../packages/client/src/index.js';
import { memdClient, startServer, type TestServer } from '../support/server.js';

/**
 * A workspace's recall must not tell what another workspace holds. On SQLite every workspace shares one keyword
 * index; its counts decide which words are searched in another's place, how rare a word is, and which words are
 * left out as matching nothing. Counted across workspaces, a word another workspace used changed the answer ("car"
 * was no longer searched as "automobile" once some other workspace said "car").
 */
const OURS = [
  'I bought a new automobile in May',
  'My brother lost his job in March',
  'We talked about money problems at dinner',
  'The doctor said my illness is not serious',
  'Money is tight this month, the insurance is due',
  'Dinner with Lena at the harbour on Friday',
];

const THEIRS = [
  ...Array.from({ length: 30 }, (_, i) => `my car number ${i} broke down again`),
  ...Array.from({ length: 20 }, (_, i) => `the physician saw patient ${i} about money problems`),
  'sickness in the family, brother at the harbour',
];

const QUESTIONS = [
  'car',
  'What did the physician say?',
  'sickness',
  'money problems',
  'brother job',
  'dinner at the harbour',
];

interface Answer {
  found: Array<{ content: string; relevance: number; signals: string[] }>;
  synonyms: unknown;
}

async function answers(memd: MemdClient, workspace: string): Promise<Answer[]> {
  const all: Answer[] = [];
  for (const query of QUESTIONS) {
    const answer = await memd.memories.recall({ workspace_id: workspace, query, limit: 5, explain: true });
    all.push({
      found: answer.memories.map((m) => ({
        content: m.content,
        relevance: Number(m.relevance_score.toFixed(4)),
        signals: [...m.match_signals].sort(),
      })),
      synonyms: answer.explanation?.synonyms,
    });
  }
  return all;
}

let alone: TestServer;
let beside: TestServer;

beforeAll(async () => {
  [alone, beside] = await Promise.all([startServer(), startServer()]);
});
afterAll(async () => {
  await Promise.all([alone?.stop(), beside?.stop()]);
});

describe('recall is the workspace\u2019s own', () => {
  it('answers alike whether or not another workspace holds the same words', async () => {
    const write = async (memd: MemdClient, workspace: string, notes: readonly string[]) => {
      await memd.workspaces.create({ id: workspace, name: workspace });
      await memd.memories.batch({
        workspace_id: workspace,
        operations: notes.map((content) => ({ op: 'create' as const, content })),
      });
    };
    const lone = memdClient(alone.url);
    await write(lone, 'ours', OURS);
    const shared = memdClient(beside.url);
    await write(shared, 'theirs', THEIRS);
    await write(shared, 'ours', OURS);

    const expected = await answers(lone, 'ours');
    // The questions find what they should: "car" only by its synonym, which the other workspace's "car" had stopped.
    expect(expected[0]!.found[0]!.content).toBe('I bought a new automobile in May');
    expect(expected[0]!.synonyms).toEqual({ car: ['automobile'] });
    expect(expected[1]!.found[0]!.content).toBe('The doctor said my illness is not serious');
    expect(expected.every((answer) => answer.found.length > 0)).toBe(true);
    expect(await answers(shared, 'ours')).toEqual(expected);
  });
});

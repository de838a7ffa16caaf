import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MemdClient } from '../../packages/client/src/index.js';
import { memdClient, startServer, type TestServer } from '../support/server.js';

let server: TestServer;
let memd: MemdClient;

beforeAll(async () => {
  server = await startServer();
  memd = memdClient(server.url);
});
afterAll(() => server.stop());

let workspaces = 0;
const workspaceWith = async (contents: string[]): Promise<string> => {
  const id = (await memd.workspaces.create({ id: `synonyms-${++workspaces}`, name: 'synonyms' })).workspace.id;
  await memd.memories.batch({
    workspace_id: id,
    operations: contents.map((content) => ({ op: 'create' as const, content })),
  });
  return id;
};

const SOFA = 'Hamid stored an antique sofa in the attic.';
const OTHERS = [
  'Hamid repaired a blue bicycle in the garage.',
  'Lena painted the kitchen walls yellow last spring.',
  'The quarterly report is due on Friday.',
  'Hamid likes chess and origami.',
];

describe('recall with a word the workspace never uses', () => {
  it('searches the synonyms of its most frequent sense that the workspace does use', async () => {
    const ws = await workspaceWith([SOFA, ...OTHERS]);
    const answer = await memd.memories.recall({
      workspace_id: ws,
      query: 'Where did Hamid keep the couch?',
      explain: true,
    });
    const [top] = answer.memories;
    expect(top!.content).toBe(SOFA);
    // "couch" matches no memory; "sofa", its synonym, is what the keyword search found the memory by.
    expect(top!.match_signals).toContain('keyword');
    expect(top!.relevance_score).toBeGreaterThanOrEqual(0.5);
    // "keep" matches nothing either, and no word of its first sense is in a memory; "store", of a later sense, is,
    // beside "Hamid", the query's other word that matches. "Hamid" is a name.
    expect(answer.explanation!.synonyms).toEqual({ keep: ['store'], couch: ['sofa'] });
  });

  // Each: the memory to find first, the others beside it, the question, and what is searched for its unmatched word.
  it.each([
    {
      // "purchase" matches nothing; its synonym "buy" matches only as "bought".
      why: 'a synonym that is an irregular verb, in its other forms as the query’s own verbs are',
      found: 'Noor bought a copper kettle at the market.',
      others: ['Noor sold a copper lamp at the market.', 'Noor likes chess and origami.'],
      query: 'What did Noor purchase at the market?',
      searched: { purchase: ['buy'] },
    },
    {
      // "kayak" has no synonym in its first sense; a kayak is a kind of canoe.
      why: 'a broader word where no synonym matches: what the word is a kind of',
      found: 'Noor keeps a green canoe in the boathouse.',
      others: ['Noor keeps a bicycle in the shed.', 'Noor likes chess and origami.'],
      query: 'Where does Noor keep the kayak?',
      searched: { kayak: ['canoe'] },
    },
    {
      // "cup" has no synonym, and no memory holds what a cup is a kind of; a goblet is a kind of cup.
      why: 'a narrower word where no synonym or broader word matches: a kind of what the word names',
      found: 'Noor keeps a silver goblet on the shelf.',
      others: ['Noor keeps a lamp on the desk.', 'Noor likes chess and origami.'],
      query: 'Where does Noor keep the cup?',
      searched: { cup: ['goblet'] },
    },
    {
      // "put" and "together" match nothing, and "put together" means neither of them alone.
      why: 'a phrase whose words all match nothing, as a whole',
      found: 'Noor assembled a wooden shelf in the study.',
      others: ['Noor painted a wooden chair in the study.', 'Noor likes chess and origami.'],
      query: 'What did Noor put together in the study?',
      searched: { put: ['assemble'], together: ['assemble'] },
    },
    {
      // WordNet relates "pendant" to no word a memory holds; of the words used most like it (GloVe), "necklace" is
      // held beside the query's other words, "bracelet" is not.
      why: 'a word used alike where WordNet relates none, only one a memory holds beside the other words',
      found: 'Noor cleaned a silver necklace in the hallway.',
      others: ['Noor bought a bracelet at the market.', 'Noor likes chess and origami.'],
      query: 'When did Noor clean the pendant in the hallway?',
      searched: { pendant: ['necklace'] },
    },
    {
      // "fly" matches nothing; "move", a broader word of its first sense, is the broader word of hundreds of verbs and
      // found the appointment that moved. "flight", a word of a later sense, is held beside "Noor".
      why: 'no broader word that most words are a kind of, but a later sense’s word that fits',
      found: "Noor's flight to Boston leaves at 7:45.",
      others: ["Noor's dentist appointment moved to Wednesday.", 'Noor likes chess and origami.'],
      query: 'When does Noor fly?',
      searched: { fly: ['flight'] },
    },
  ])('searches $why', async ({ found, others, query, searched }) => {
    const ws = await workspaceWith([...others, found]);
    const answer = await memd.memories.recall({ workspace_id: ws, query, explain: true });
    expect(answer.explanation!.synonyms).toEqual(searched);
    expect(answer.memories[0]!.content).toBe(found);
  });

  // Among a million memories each name is in about a hundred (issue 24): the name is most of the query's evidence,
  // the person's short memories lie nearest, and what tells the one asked about apart is the synonym it holds.
  it('puts first the memory of the person asked about that holds the synonym, among many naming them', async () => {
    const found = 'On 10 June 2018, Hamid Eriksen stored an antique sofa in the attic in Geneva.';
    const hamid = [
      'Hamid Eriksen likes chess.',
      'Hamid Eriksen works as a baker.',
      'Hamid Eriksen lives in Graz.',
      'Hamid Eriksen plays the violin.',
      'Hamid Eriksen has two cats.',
      'Hamid Eriksen speaks Danish.',
      'Hamid Eriksen owns a red bicycle.',
      'Hamid Eriksen painted a fence.',
    ];
    const people = ['Lena Okafor', 'Ravi Moreau', 'Ines Lindqvist', 'Tomas Abara', 'Yuki Brandt', 'Sara Novak'];
    // Each of them cleaned each thing: the name is rarer than any other word the query and the memories share.
    const things = ['a sofa', 'a lamp', 'a kettle', 'a rug', 'a desk', 'a mirror', 'a vase', 'a clock'];
    const others = people.flatMap((name) => things.map((thing) => `${name} cleaned ${thing} in the hallway.`));
    const ws = await workspaceWith([found, ...hamid, ...others]);
    const answer = await memd.memories.recall({
      workspace_id: ws,
      query: 'When did Hamid Eriksen misplace a couch?',
      explain: true,
    });
    expect(answer.explanation!.synonyms).toEqual({ couch: ['sofa'] });
    expect(answer.memories[0]!.content).toBe(found);
  });

  it('answers an acronym with the memory that spells it out, and counts the spelled-out words as its own', async () => {
    const ci = 'Continuous integration runs on GitHub Actions, with a nightly job for the slow tests.';
    const ws = await workspaceWith([
      'The project keeps its data in PostgreSQL 15.',
      'Sessions are cached in Redis instead of Memcached.',
      ci,
    ]);
    const answer = await memd.memories.recall({ workspace_id: ws, query: 'What do we use for CI?', explain: true });
    expect(answer.explanation!.synonyms.ci).toEqual(['continuous integration']);
    const [top] = answer.memories;
    expect(top!.content).toBe(ci);
    expect(top!.match_signals).toContain('keyword');
    // "ci" held, "use" not: the ranking counts the spelled-out words as the acronym.
    expect(top!.explanation!.features!.coverage).toBe(0.5);
    expect(top!.explanation!.features!.keyword).toBeGreaterThan(0);
  });

  // After the first test: SQLite counts a word across the database's workspaces, and this one writes "couch".
  it('leaves a word that matches a memory as it is', async () => {
    const couch = 'The old couch stands in the living room.';
    const ws = await workspaceWith([SOFA, couch, ...OTHERS]);
    const answer = await memd.memories.recall({ workspace_id: ws, query: 'couch', limit: 10, explain: true });
    const found = answer.memories;
    expect(found[0]!.content).toBe(couch);
    expect(answer.explanation!.synonyms).toEqual({});
    const sofa = found.find((memory) => memory.content === SOFA);
    expect(sofa?.match_signals ?? []).not.toContain('keyword');
  });
});

// Last: SQLite counts a word across the database's workspaces, and these write words of work in full.
describe('recall with a word of work written short or in full', () => {
  it('answers "cert" and "prod db" with the memories that write them in full, and the other way round', async () => {
    const cert = 'Priya asked to be reminded to renew the TLS certificate before March 14.';
    const backup = 'The production database is backed up every night at 02:00 UTC.';
    const vpc = 'Staging and prod share one VPC but separate subnets.';
    const ws = await workspaceWith([cert, backup, vpc, 'Performance tests run nightly against a copy of prod data.']);
    const first = async (query: string) =>
      (await memd.memories.recall({ workspace_id: ws, query })).memories[0]?.content;
    expect(await first('when does the cert expire?')).toBe(cert);
    expect(await first('how often is the prod db backed up?')).toBe(backup);
    expect(await first('do staging and production share a network?')).toBe(vpc);
  });
});

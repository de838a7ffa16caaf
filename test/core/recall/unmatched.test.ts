import { stemmer } from 'stemmer';
import { describe, expect, it } from 'vitest';
import { keywordEvidence } from '../../../src/core/recall/arms.js';
import {
  bm25Scores,
  inverseDocumentFrequency,
  namesShare,
  scoredTerms,
} from '../../../src/core/recall/keyword-score.js';
import { type ProcessedQuery, processQuery, synonymForms } from '../../../src/core/recall/query.js';
import type { MatchCountCache } from '../../../src/core/recall/match-counts.js';
import { heldSynonyms, withSynonymsForUnmatched } from '../../../src/core/recall/unmatched.js';
import type { KeywordTerm } from '../../../src/storage/types.js';

const NOW = new Date('2026-01-01T00:00:00Z');
const DOCUMENTS = 1_000_000;

/** "couch" matches nothing and is searched as "sofa", as `withSynonymsForUnmatched` leaves the query. */
function couchAsked(text: string): ProcessedQuery {
  const query = processQuery(text, NOW);
  return {
    ...query,
    termForms: new Map([...query.termForms, ['couch', ['sofa']]]),
    synonyms: new Map([['couch', ['sofa']]]),
  };
}

/** Keyword evidence with each term matching as many memories as `matchesOf` says (by its first word's stem). */
function evidenceOf(query: ProcessedQuery, matchesOf: (word: string) => number) {
  const terms = scoredTerms(query);
  const matches = terms.map((term) => Math.min(...term.words.map((forms) => matchesOf([...forms][0]!))));
  return { terms, matches, idf: matches.map((m) => inverseDocumentFrequency(m, DOCUMENTS)) };
}

const QUESTION = 'When did Hamid Eriksen misplace a couch?';
// A person among a million memories: the name in a hundred, the synonym in twenty thousand, "misplace" in none.
const rareName = (word: string) => ({ hamid: 100, eriksen: 100, couch: 20_000 })[word] ?? 0;
// A speaker of a conversation: the name in half the memories.
const speaker = (word: string) => (word === 'hamid' || word === 'eriksen' ? DOCUMENTS / 2 : rareName(word));

describe('namesShare', () => {
  it('is most of the weight for a rare name, little for a name in half the workspace, 0 with no name', () => {
    const query = couchAsked(QUESTION);
    expect(namesShare(evidenceOf(query, rareName), query.entities)).toBeGreaterThan(0.5);
    expect(namesShare(evidenceOf(query, speaker), query.entities)).toBeLessThan(0.5);
    const anonymous = couchAsked('When was the couch misplaced?');
    expect(namesShare(evidenceOf(anonymous, rareName), anonymous.entities)).toBe(0);
  });
});

describe('heldSynonyms', () => {
  const found = 'On 10 June 2018, Hamid Eriksen stored an antique sofa in the attic.';
  const short = 'Hamid Eriksen likes chess.';
  const someoneElse = 'Lena Okafor stored a sofa in the attic.';
  const firstNameOnly = 'Hamid Okafor stored a sofa in the attic.';

  it('credits the synonym to a memory of the person asked about, where the name is most of the query', () => {
    const query = couchAsked(QUESTION);
    const held = heldSynonyms(query, evidenceOf(query, rareName));
    expect([found, short, someoneElse, firstNameOnly].map(held)).toEqual([1, 0, 0, 0]);
  });

  it('credits a synonym ending in e held in its past tense ("examine", "examined")', () => {
    const plain = processQuery('When did Hamid Eriksen inspect a couch?', NOW);
    const query = {
      ...plain,
      termForms: new Map([['inspect', synonymForms('examine')]]),
      synonyms: new Map([['inspect', ['examine']]]),
    };
    const held = heldSynonyms(
      query,
      evidenceOf(query, (word) => ({ hamid: 100, eriksen: 100, examin: 20_000 })[word] ?? 0),
    );
    expect(held('On 2 May 2020, Hamid Eriksen examined a green mug.')).toBe(1);
    expect(held('Hamid Eriksen likes chess.')).toBe(0);
  });

  it('credits nothing where the name weighs little, or no synonym was searched', () => {
    const query = couchAsked(QUESTION);
    expect(heldSynonyms(query, evidenceOf(query, speaker))(found)).toBe(0);
    const plain = processQuery(QUESTION, NOW);
    expect(heldSynonyms(plain, evidenceOf(plain, rareName))(found)).toBe(0);
  });
});

/** Counts as storage would give them for a workspace whose memories hold these words this often (alternatives add). */
function countsOf(held: Record<string, number>, documents = 1_000): MatchCountCache {
  const count = (term: KeywordTerm) =>
    (typeof term === 'string' ? [term] : term).reduce((n, t) => n + (held[t] ?? 0), 0);
  return {
    matchCounts: async (_workspace: string, sets: ReadonlyArray<readonly KeywordTerm[]>) =>
      sets.map((set) => Math.min(...set.map(count))),
    documentCount: async () => documents,
  } as unknown as MatchCountCache;
}

/**
 * Counts as storage would give them over these memories: those holding every term (any of a term's forms), words
 * compared by their Porter stems as the keyword index compares them ("clean" matches "cleaned").
 */
function countsIn(memories: readonly string[]): MatchCountCache {
  const stems = (text: string) =>
    text
      .toLowerCase()
      .split(/[^a-z]+/)
      .filter(Boolean)
      .map(stemmer);
  const held = memories.map((text) => new Set(stems(text)));
  const holds = (words: Set<string>, term: KeywordTerm) =>
    (typeof term === 'string' ? [term] : term).some((form) => stems(form).every((w) => words.has(w)));
  return {
    matchCounts: async (_workspace: string, sets: ReadonlyArray<readonly KeywordTerm[]>) =>
      sets.map((set) => held.filter((words) => set.every((term) => holds(words, term))).length),
    documentCount: async () => memories.length,
  } as unknown as MatchCountCache;
}

/** The query of `question` with what is searched for its unmatched words, over these memories, two a word. */
const expandedOver = (question: string, memories: readonly string[]) =>
  withSynonymsForUnmatched(processQuery(question, NOW), countsIn(memories), 'ws', 2);

describe('keywordEvidence', () => {
  it('weighs a word searched through a stand-in below a word the query says, where both are as rare', async () => {
    // "couch" matches nothing and is searched as "sofa"; "sofa" and "paint" are each in ten memories.
    const query = couchAsked('Which couch did Hamid paint?');
    const evidence = await keywordEvidence(countsOf({ hamid: 100, sofa: 10, paint: 10 }), 'ws', query, 0.5);
    const idfOf = (word: string) => evidence.idf[query.terms.indexOf(word)]!;
    expect(idfOf('couch')).toBeCloseTo(idfOf('paint') / 2);
    const [saysPaint, holdsSofa] = bm25Scores(evidence.terms, evidence.idf, [
      'Hamid painted the garden fence.',
      'Hamid bought a sofa for the hall.',
    ]);
    expect(saysPaint).toBeGreaterThan(holdsSofa!);
  });
});

describe('withSynonymsForUnmatched', () => {
  it('searches no word in its place that a tenth of a large workspace holds', async () => {
    const query = processQuery('Who coloured a fragile quilt at school?', NOW);
    // "colour": no synonym matches; of its broader words "influence" does, in a quarter of 20,000 memories; of its
    // narrower words "paint" does, in few. ("work", its broader word that brought every memory saying "works as", is
    // now too general to be searched at all: the broader word of 189 entries.)
    const held = { influence: 5_000, work: 5_000, paint: 50, fragile: 900, school: 800 };
    const expanded = await withSynonymsForUnmatched(query, countsOf(held, 20_000), 'ws', 2);
    expect(expanded.synonyms.get('coloured')).toEqual(['paint']);
    // Where a quarter of the workspace is fewer memories than a keyword search scores, the common word is kept.
    const small = { influence: 250, work: 250, paint: 5, fragile: 90, school: 80 };
    const kept = await withSynonymsForUnmatched(query, countsOf(small, 1_000), 'ws', 2);
    expect(kept.synonyms.get('coloured')).toEqual(['influence']);
  });

  it("searches a later sense's word only where a memory holds it beside the query's other words", async () => {
    const query = processQuery('Who washed an old longboard at the park?', NOW);
    // "washed" matches nothing, nor does any word of its first sense; "clean", of a later one, does, beside "old"
    // and "park". "longboard" matches nothing and is no word of the table.
    const fits = await withSynonymsForUnmatched(
      query,
      countsIn(['Ana cleaned an old skateboard at the park.', 'Bo works at the park.']),
      'ws',
      2,
    );
    expect(fits.synonyms).toEqual(new Map([['washed', ['clean']]]));
    expect([...fits.absent]).toEqual(['longboard']);
    // Memories hold "cleaned", but none beside "old" and "park": the later sense is not searched.
    const apart = await withSynonymsForUnmatched(
      query,
      countsIn(['Ana cleaned a car in the garage.', 'There was an old skateboard at the park.']),
      'ws',
      2,
    );
    expect(apart.synonyms.size).toBe(0);
    expect([...apart.absent].sort()).toEqual(['longboard', 'washed']);
  });

  it("searches a word a thesaurus relates only where a memory holds it beside the query's other words", async () => {
    // No sense of "torch" in WordNet gives a word these memories hold; Moby's thesaurus relates it to lantern.
    const query = processQuery('Who washed an old torch at the park?', NOW);
    const fits = await withSynonymsForUnmatched(
      query,
      countsIn(['Ana cleaned an old lantern at the park.', 'Bo works at the park.']),
      'ws',
      2,
    );
    expect(fits.synonyms).toEqual(
      new Map([
        ['washed', ['clean']],
        ['torch', ['lantern']],
      ]),
    );
    // A lantern, but none old at the park: not searched.
    const apart = await withSynonymsForUnmatched(
      query,
      countsIn(['Ana cleaned an old kettle at the park.', 'Bo bought a lantern at the market.']),
      'ws',
      2,
    );
    expect(apart.synonyms).toEqual(new Map([['washed', ['clean']]]));
    expect([...apart.absent]).toEqual(['torch']);
  });

  it("searches a broader or narrower word only where it fits the query's other words, if any match", async () => {
    // "package" is a kind of collection, which every memory of stamp collecting holds (a stem to the keyword index),
    // none of them beside the yellow lantern at the market; Moby relates it to wrap, which fits.
    const expanded = await expandedOver('Who packaged a yellow lantern at the market?', [
      'Bo likes stamp collecting.',
      'Ana wrapped a yellow lantern at the market.',
    ]);
    expect(expanded.synonyms.get('packaged')).toEqual(['wrap']);
    // Nothing else the query says matches: the broader word is searched wherever a memory holds it.
    const alone = await expandedOver('Where is the kayak?', ['The canoe is in the shed.']);
    expect(alone.synonyms.get('kayak')).toEqual(['canoe']);
  });

  it("searches a thesaurus's related word before a word merely used alike ('quilt' as blanket, not knitting)", async () => {
    // GloVe uses tapestry, rug … knitting most like "quilt"; Moby relates it to bedspread … blanket. Both fit.
    const expanded = await expandedOver('Who drew a quilt at the market?', [
      'Dario Zamora sketched a yellow blanket at the market.',
      'Dario Zamora sketched knitting patterns at the market.',
    ]);
    expect(expanded.synonyms.get('quilt')).toEqual(['blanket']);
  });

  it("searches a word used alike only where a memory holds it beside the query's other words", async () => {
    // WordNet relates "pendant" to no word these memories hold; GloVe puts necklace and bracelet nearest. Only the
    // necklace was washed, new, at the office.
    const expanded = await expandedOver('Who washed a new pendant at the office?', [
      'Ana cleaned a new necklace at the office.',
      'Bo bought a bracelet at the market.',
    ]);
    expect(expanded.synonyms.get('pendant')).toEqual(['necklace']);
    expect(expanded.synonyms.get('washed')).toEqual(['clean']);
  });

  it('takes one word of each stem in its place ("oven" as bake and stove, not bake and baking)', async () => {
    // GloVe uses bake, rack, preheat, roasting, skillet, baking, stove most like "oven"; "bake" and "baking" are one
    // word to the keyword index, so the second place goes to the next word that fits.
    const expanded = await expandedOver('When did Bruno Holm clean the oven?', [
      'Bruno Holm cleaned up after baking bread.',
      'Bruno Holm cleaned a vintage stove in the kitchen.',
    ]);
    expect(expanded.synonyms.get('oven')).toEqual(['bake', 'stove']);
  });

  it('searches a word in place of one word of the query only, the first it was found for', async () => {
    // "coloured" → paint (a kind of colouring); "coat" → jacket and paint (to coat: to paint is one way). Searched for
    // both, paint made every memory that painted something hold both words.
    const expanded = await expandedOver('Who coloured a fragile coat at the station?', [
      'Ana painted a fragile jacket at the station.',
      'Bo painted a fragile mug at the station.',
    ]);
    expect(expanded.synonyms.get('coloured')).toEqual(['paint']);
    expect(expanded.synonyms.get('coat')).toEqual(['jacket']);
  });

  it('searches nothing in place of a light verb before a noun ("took a picture of")', async () => {
    // "took" matches nothing; looked up, "take" gave return (its noun's first sense: takings), which the memory that
    // returned a kettle holds. The noun after it says what was done.
    const memories = ['Ana returned a kettle at the park.', 'Bo photographed a kettle at the park.'];
    const expanded = await expandedOver('Who took a picture of a kettle at the park?', memories);
    expect(expanded.synonyms.has('took')).toBe(false);
    expect(expanded.absent.has('took')).toBe(true);
    expect(expanded.synonyms.get('picture')).toContain('photograph');
    // Without an article after it, "took" is no light verb here and is looked up as before.
    const plain = await expandedOver('Who took kettles to the park?', memories);
    expect(plain.synonyms.get('took')).toEqual(['return']);
  });

  it('looks an irregular verb up by its base form ("kept" as keep)', async () => {
    const expanded = await expandedOver('Who kept an antique sofa at school?', [
      'Ana stored an antique sofa at school.',
      'Bo works at a school.',
    ]);
    expect(expanded.synonyms.get('kept')).toEqual(['store']);
  });

  it('asks no word of a phrase alone where nothing is found for the phrase', async () => {
    // "part with" is one phrase of the table (spare, give: no memory holds either); "part" alone would be split,
    // which a memory holds as a city.
    const expanded = await expandedOver('Who parted with a heavy couch at the gym?', [
      'Ana sold a heavy sofa at the gym.',
      'Bo works as a baker in Split.',
    ]);
    expect(expanded.synonyms).toEqual(new Map([['couch', ['sofa']]]));
    expect([...expanded.absent]).toEqual(['parted']);
  });

  it('asks alone only the last of words side by side that all match nothing', async () => {
    // "water" alone would be clean, a word used like it, which a memory holds beside "shiny" and "office".
    const expanded = await expandedOver('Who adorned a shiny water boiler at the office?', [
      'Ana decorated a shiny kettle at the office.',
      'Bo cleaned a shiny lamp at the office.',
    ]);
    expect(expanded.synonyms.get('boiler')).toEqual(['kettle']);
    expect(expanded.synonyms.has('water')).toBe(false);
    expect(expanded.absent.has('water')).toBe(true);
  });

  it('asks a word alone before a word the table does not hold ("pick postgres")', async () => {
    // "pick" and "postgres" both match nothing; "postgres" is no word of the table, so "pick" is no modifier of a
    // compound: its broader word "deciding" is what a memory holds ("decided", by the Porter stem).
    const expanded = await expandedOver('Why did we pick postgres?', [
      'We decided to use PostgreSQL for the billing service.',
      'The deploy script fails when the VPN is down.',
    ]);
    expect(expanded.synonyms).toEqual(new Map([['pick', ['deciding']]]));
    expect([...expanded.absent]).toEqual(['postgres']);
  });

  it('searches no function word in place of a word ("live" is a kind of "be")', async () => {
    // "be" (with its forms: was, is) would match both memories, and make the one about a timeout hold "live".
    const expanded = await expandedOver('Where do I live?', [
      'The billing timeout was raised after the incident.',
      'I moved to Lisbon in March.',
    ]);
    expect(expanded.synonyms.size).toBe(0);
    expect([...expanded.absent]).toEqual(['live']);
  });

  it('searches two words side by side as the one word the memories write ("log in" as login, "time zone")', async () => {
    const loggedIn = await expandedOver("Why can't some users log in?", [
      'Bug 482: login fails for emails with a plus sign.',
      'Users prefer the dark theme.',
    ]);
    expect(loggedIn.synonyms).toEqual(new Map([['log', ['login']]]));
    const zoned = await expandedOver('Which time zone is the user in?', [
      'The user works from Berlin, timezone CET.',
      'The deploy runs at a fixed time.',
    ]);
    expect(zoned.synonyms).toEqual(new Map([['zone', ['timezone']]]));
    // Not after a function word: "a part" is not "apart".
    const apart = await expandedOver('Who replaced a part of the fence?', [
      'Ana lives apart from her brother.',
      'Bo replaced the gate of the fence.',
    ]);
    expect(apart.synonyms.get('part') ?? []).not.toContain('apart');
  });

  it('looks up no form of a function word ("done" is no word of the table, nor its base "do")', async () => {
    // "do" was an entry of the table (a party: bash, brawl; make): "done", matching nothing, was searched as make.
    const expanded = await expandedOver('How is billing done?', [
      'Database migrations are applied with make migrate.',
      'Invoices are generated by Stripe Billing.',
    ]);
    expect(expanded.synonyms.size).toBe(0);
    expect([...expanded.absent]).toEqual(['done']);
  });

  it('searches an acronym written in capitals as what it stands for, where the memories spell it out', async () => {
    const notes = [
      'Continuous integration runs on GitHub Actions, with a nightly job for the slow tests.',
      'Every pull request needs two approvals before merge.',
    ];
    expect((await expandedOver('What do we use for CI?', notes)).synonyms).toEqual(
      new Map([['ci', ['continuous integration']]]),
    );
    expect((await expandedOver('How many approvals does a PR need?', notes)).synonyms).toEqual(
      new Map([['pr', ['pull request']]]),
    );
    // Held as it is where a memory says it so; not an acronym in lower case (a word), nor a name that is no acronym.
    expect((await expandedOver('What do we use for CI?', [...notes, 'CI is green again.'])).synonyms.size).toBe(0);
    expect((await expandedOver('Is the pr ready?', notes)).synonyms.size).toBe(0);
    expect((await expandedOver('What does ACME use for builds?', notes)).synonyms.size).toBe(0);
  });

  it('searches an acronym in lower case as what it stands for where no unit or word spells it ("k8s", "sso")', async () => {
    const notes = [
      'The main service is deployed on Kubernetes in eu-west-1.',
      'Single sign-on goes through Okta for every internal tool.',
      'Each product manager writes the release notes.',
    ];
    expect((await expandedOver('what k8s region?', notes)).synonyms.get('k8s')).toEqual(['kubernetes']);
    expect((await expandedOver('how does sso work?', notes)).synonyms.get('sso')).toEqual([
      'single sign-on',
      'single sign on',
    ]);
    // Two letters in lower case are as often a unit or a word: "pm" here is the time of day.
    expect((await expandedOver('who is free at 3 pm?', notes)).synonyms.get('pm')).toBeUndefined();
  });

  it('searches an acronym\'s expansion the query spells out as the acronym the memories write ("single sign-on")', async () => {
    const notes = ['Lena is on the Enterprise plan with SSO through Okta.', 'Lena renewed the contract in March.'];
    const expanded = await expandedOver('What single sign-on provider does Lena use?', notes);
    expect(expanded.synonyms.get('single')).toEqual(['sso']);
    expect(expanded.synonyms.get('sign')).toEqual(['sso']);
    // Not where a word of the expansion matches as it is ("sign" in a note), nor where no memory writes the acronym.
    const signed = await expandedOver('What single sign-on provider does Lena use?', [...notes, 'Sign here.']);
    expect(signed.synonyms.get('sign')).toBeUndefined();
    expect(signed.synonyms.get('single')).not.toEqual(['sso']);
    const spelled = await expandedOver('What single sign-on provider does Lena use?', ['Lena uses Okta for logins.']);
    expect(spelled.synonyms.get('single') ?? []).not.toContain('sso');
  });

  it('searches a word of its family that the workspace holds before any synonym ("decisions" as decide)', async () => {
    const notes = ['We decided to hire a second SRE.', 'We agreed to move the standup to 9:30.'];
    // WordNet's first sense of "decision" gave "move" (of chess), which the standup note holds.
    expect((await expandedOver('Which decisions were made?', notes)).synonyms.get('decisions')).toEqual(['decide']);
    const decision = ['The decision was to keep the ledger on PostgreSQL.'];
    expect((await expandedOver('What did we decide about the ledger?', decision)).synonyms.get('decide')).toEqual([
      'decision',
    ]);
  });

  it('leaves absent the words that match nothing and get nothing in their place, not names or dates', async () => {
    const query = processQuery('Did Hamid Eriksen store the couch in the zorblax in May 2024?', NOW);
    const expanded = await withSynonymsForUnmatched(query, countsOf({ store: 5, sofa: 3 }), 'ws', 2);
    // "couch" matches nothing and its synonym does; "zorblax" matches nothing and is in no thesaurus. The name's words
    // and the date's are never counted as words the workspace lacks.
    expect(expanded.synonyms).toEqual(new Map([['couch', ['sofa']]]));
    expect([...expanded.absent]).toEqual(['zorblax']);
    // With no synonyms asked for, a word that matches nothing is absent whether the thesaurus knows it or not.
    const plain = await withSynonymsForUnmatched(query, countsOf({ store: 5, sofa: 3 }), 'ws', 0);
    expect(plain.synonyms.size).toBe(0);
    expect([...plain.absent].sort()).toEqual(['couch', 'zorblax']);
  });
});

import { describe, expect, it } from 'vitest';
import { processQuery, withoutShouting } from '../../../src/core/recall/query.js';

const NOW = new Date('2024-03-15T12:00:00Z');
const processed = (text: string) => processQuery(text, NOW);

describe('processQuery', () => {
  it('keeps content words once, in query order, without stopwords or question words', () => {
    expect(processed('What tools does the team use, and what tools did the team drop?').terms).toEqual([
      'tools',
      'team',
      'use',
      'drop',
    ]);
  });

  it('drops a request verb that opens the query, but not the same verb later on', () => {
    expect(processed('Tell me about the support group').terms).toEqual(['support', 'group']);
    expect(processed('Why did Ana tell Bob').terms).toEqual(['ana', 'tell', 'bob']);
  });

  it('pairs adjacent content words into phrases', () => {
    expect(processed('Tell me about the support group meetings').phrases).toEqual(['support group', 'group meetings']);
  });

  it('finds names, joining an abbreviation to the name after it, and not the opening question word', () => {
    expect(processed('When did Melanie meet Dr. Seuss?').entities).toEqual(['Melanie', 'Dr. Seuss']);
  });

  it('takes quoted phrases as entities, whatever their case, and does not take month names for names', () => {
    expect(processed('What did I buy at "the night market" in June?').entities).toEqual(['the night market']);
  });

  it('names each entity once, the quoted form first', () => {
    expect(processed('Did "Caroline" call Caroline?').entities).toEqual(['Caroline']);
  });

  it('adds the other forms of an irregular verb, also through its inflection', () => {
    expect(processed('When did Ana meet Bob').termForms.get('meet')).toEqual(['met']);
    expect(processed('What was Caroline drawing').termForms.get('drawing')).toEqual(['draw', 'drew', 'drawn']);
    expect(processed('What was Caroline painting').termForms.has('painting')).toBe(false);
  });

  it('adds the word a clipping is short for, and the clipping of a word written in full, plurals too', () => {
    const query = processed('When does the prod cert expire, and where are the repositories?');
    expect(query.termForms.get('prod')).toEqual(['production']);
    expect(query.termForms.get('cert')).toEqual(['certificate']);
    expect(query.termForms.get('repositories')).toEqual(['repos']);
    expect(processed('how does auth work').termForms.get('auth')).toEqual(['authentication', 'authorization']);
    // A word that is no clipping of the table has no such form.
    expect(processed('the doc said to rest').termForms.has('doc')).toBe(false);
  });

  it('adds a number in digits or words, but not to the day of a date', () => {
    expect(processed('who has 3 kids?').termForms.get('3')).toEqual(['three']);
    expect(processed('what is on the second floor?').termForms.get('second')).toEqual(['2nd']);
    const dated = processed('What did Maria adopt on 3 June, 2023?');
    expect(dated.terms).toContain('3');
    expect(dated.termForms.has('3')).toBe(false);
  });

  it('asks each part of a hyphenated compound also as the compound written as one word', () => {
    const query = processed('Who sent the follow-up e-mail to the co-worker?');
    expect(query.terms).toEqual(['sent', 'follow', 'e', 'mail', 'co', 'worker']);
    expect(query.termForms.get('follow')).toEqual(['followup']);
    expect(query.termForms.get('e')).toEqual(['email']);
    expect(query.termForms.get('mail')).toEqual(['email']);
    expect(query.termForms.get('worker')).toEqual(['coworker']);
    // A compound as one word is a word as any other; a dash between words, or a number's sign, is no compound.
    expect(processed('the followup - sent').termForms.has('followup')).toBe(false);
    expect(processed('covid-19 cases').termForms.has('covid')).toBe(false);
  });

  it('leaves the words of a relative time expression to its window, not to the terms', () => {
    const query = processed('What was Caroline drawing last week?');
    expect(query.terms).toEqual(['caroline', 'drawing']);
    expect(query.windows.map((window) => window.text)).toEqual(['last week']);
  });

  it('asks a word of Chinese, Japanese or Korean by its pairs of characters, and no pair across two words', () => {
    expect(processed('チョコレート').terms).toEqual(['チョ', 'ョコ', 'コレ', 'レー', 'ート']);
    expect(processed('北京大学').terms).toEqual(['北京', '大学']);
    // ICU finds the words: 我 女儿 在 哪里 上学; "我女" or "在哪" would be pairs across them.
    expect(processed('我女儿在哪里上学？').terms).toEqual(['我', '女儿', '在', '哪里', '上学']);
    // A word ICU does not know comes back as characters: read together again, not as 咖 and 喱.
    expect(processed('咖喱').terms).toEqual(['咖喱']);
    expect(processed('달리기').terms).toEqual(['달리', '리기']);
    // Pairs are adjacent already: no phrase of them.
    expect(processed('北京大学 library hours').phrases).toEqual(['library hours']);
  });

  it('asks a word without the diacritics of its Latin letters, as the index holds it', () => {
    expect(processed('rendez-vous chez le médecin à Málaga').terms).toContain('medecin');
    expect(processed('rendez-vous chez le médecin à Málaga').terms).toContain('malaga');
  });
});

describe('withoutShouting', () => {
  it('reads a question in capitals throughout in lower case, and leaves any other as written', () => {
    expect(withoutShouting('WHERE DOES MAYA LIVE?')).toBe('where does maya live?');
    expect(withoutShouting('WHAT IS THE API KEY FOR STAGING')).toBe('what is the api key for staging');
    // One lower-case letter says the capitals are meant; a word alone is an acronym.
    expect(withoutShouting('Where does NASA launch from?')).toBe('Where does NASA launch from?');
    expect(withoutShouting('NASA')).toBe('NASA');
    expect(withoutShouting('GPT-4')).toBe('GPT-4');
  });

  it('gives a question in capitals the entities it names in lower case: none', () => {
    expect(processQuery('WHEN DID MAYA MOVE TO LISBON?', new Date('2024-01-01')).entities).not.toEqual([]);
    expect(processQuery(withoutShouting('WHEN DID MAYA MOVE TO LISBON?'), new Date('2024-01-01')).entities).toEqual([]);
  });
});

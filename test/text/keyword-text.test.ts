import { describe, expect, it } from 'vitest';
import {
  hyphenatedCompounds,
  isUnspaced,
  joinedParts,
  PAIRED_CHARACTERS,
  keywordPhrase,
  keywordText,
  keywordTextIfOther,
  keywordWords,
} from '../../src/text/keyword-text.js';

describe('the text as the keyword index reads it', () => {
  it('reads a run of Chinese, Japanese or Korean as its pairs of characters in order, then its characters', () => {
    expect(keywordText('我喝咖啡。')).toBe(' 我喝 喝咖 咖啡 我 喝 咖 啡  ');
    expect(keywordText('달리기를 합니다')).toBe(' 달리 리기 기를 달 리 기 를   합니 니다 합 니 다 ');
    // Katakana's prolonged sound mark is part of the word.
    expect(keywordText('カード')).toBe(' カー ード カ ー ド ');
    // Thai, Lao, Khmer and Burmese too; their vowel and tone marks pair as characters.
    expect(keywordText('กินข้าว')).toBe(' กิ ิน นข ข้ ้า าว ก ิ น ข ้ า ว ');
    expect(keywordWords('ข้าว')).toEqual(['ข้', '้า', 'าว']);
    expect(isUnspaced('ເຂົ້າ')).toBe(true);
    expect(isUnspaced('សៀវភៅ')).toBe(true);
    expect(isUnspaced('လက်ဖက်')).toBe(true);
    // A character alone is itself.
    expect(keywordText('猫 and dog')).toBe(' 猫  and dog');
  });

  it('reads Latin letters without their diacritics, and keeps other scripts as written', () => {
    expect(keywordText('Zoë met the médecin in Málaga')).toBe('Zoe met the medecin in Malaga');
    expect(keywordText('Я люблю книги')).toBe('Я люблю книги');
    // Devanagari's vowel signs are combining marks, and not diacritics to drop.
    expect(keywordText('नमस्ते')).toBe('नमस्ते');
  });

  it('leaves text of ASCII only as it is, and says so', () => {
    expect(keywordText('Anna likes tea.')).toBe('Anna likes tea.');
    expect(keywordTextIfOther('Anna likes tea.')).toBeNull();
  });

  it("reads punctuation, symbols and spaces beyond ASCII as spaces, and its apostrophes as ASCII's", () => {
    // Separators to SQLite's tokenizer, letters to PostgreSQL's parser under LC_CTYPE C.
    expect(keywordText('everywhere—even Paris')).toBe('everywhere even Paris');
    expect(keywordText('“quoted” …and 5°C, €5')).toBe(' quoted   and 5 C,  5');
    expect(keywordText('Maya’s O’Neil\u00a0Street')).toBe("Maya's O'Neil Street");
    expect(keywordWords('o’neil')).toEqual(["o'neil"]);
    expect(keywordTextIfOther('café')).toBe('cafe');
  });

  it('reads words joined by a dot, slash, at sign or colon apart', () => {
    expect(keywordText('see src/services/userService.ts')).toBe('see src services userService user Service ts');
    expect(keywordText('mail ana@example.com or https://example.org/help')).toBe(
      'mail ana example com or https example org help',
    );
    // Punctuation that ends a sentence or a word is no joint.
    expect(keywordText('Done. Next: tea.')).toBe('Done. Next: tea.');
    expect(keywordTextIfOther('Done. Next: tea.')).toBeNull();
    // A path's opening slash, dot or tilde; a sign before a digit ("-15" of a date, "-123" of a ticket, "+1").
    expect(keywordText('edit /etc/hosts and ~/.bashrc')).toBe('edit  etc hosts and  bashrc');
    expect(keywordText('on 2024-03-15, ticket ABC-123, call +1 555')).toBe(
      'on 2024 03 15, ticket ABC 123, call  1 555',
    );
    // Other hyphens and an underscore stay: both engines split there already (a compound is also read as one word,
    // below).
    expect(keywordText('react-router and REDIS_URL')).toBe('react-router and REDIS_URL reactrouter');
  });

  it('reads a hyphenated compound in its parts, then once as one word after the text', () => {
    expect(keywordText('Send the follow-up e-mail; the follow-up is due.')).toBe(
      'Send the follow-up e-mail; the follow-up is due. followup email',
    );
    expect(keywordText('a state-of-the-art check-in')).toBe('a state-of-the-art check-in stateoftheart checkin');
    expect(keywordText('Jean-Loïc’s rendez-vous')).toBe("Jean-Loic's rendez-vous JeanLoic rendezvous");
    // Not a number's sign, a dash between words, or letters too few to be a word.
    expect(keywordTextIfOther('covid and - dashes -- here, x-y')).toBeNull();
    expect(keywordText('covid-19')).toBe('covid 19');
    expect(hyphenatedCompounds('a follow-up to the follow-up, an e-mail')).toEqual([
      { parts: ['follow', 'up'], joined: 'followup' },
      { parts: ['e', 'mail'], joined: 'email' },
    ]);
  });

  it('reads a camel-case word whole, then in its parts', () => {
    expect(keywordText('call getUserById')).toBe('call getUserById get User By Id');
    expect(keywordText('XMLHttpRequest and HTTPServer')).toBe(
      'XMLHttpRequest XML Http Request and HTTPServer HTTP Server',
    );
    // A capital before one lower-case letter is a plural's: "IDs", "APIs" stay one word.
    expect(keywordTextIfOther('The APIs take IDs and URLs.')).toBeNull();
    expect(keywordText('ÉcoleNormale')).toBe('EcoleNormale Ecole Normale');
  });

  it("splits a query's word into the index's words", () => {
    expect(keywordWords('咖啡')).toEqual(['咖啡']);
    expect(keywordWords('北京大学')).toEqual(['北京', '京大', '大学']);
    expect(keywordWords('猫')).toEqual(['猫']);
    expect(keywordWords('iphone手机')).toEqual(['iphone', '手机']);
    expect(keywordWords('médecin')).toEqual(['medecin']);
    expect(keywordWords('tea')).toEqual(['tea']);
    expect(isUnspaced('大学')).toBe(true);
    expect(isUnspaced('tea')).toBe(false);
    // ICU keeps "userservice.ts" and "redis_url" one word each; the index holds their parts.
    expect(joinedParts('userservice.ts')).toEqual(['userservice', 'ts']);
    expect(joinedParts('redis_url')).toEqual(['redis', 'url']);
    expect(joinedParts('tea')).toEqual(['tea']);
  });

  it('searches a phrase as the words the index holds in a row', () => {
    expect(keywordPhrase('José García')).toBe('Jose Garcia');
    expect(keywordPhrase('北京大学')).toBe('北京 京大 大学');
    expect(keywordPhrase('support group')).toBe('support group');
    expect(keywordPhrase('Node.js guide')).toBe('Node js guide');
    // The pairs of a longer word stand one after the other wherever the word is written.
    const held = keywordText('我在北京大学读书').trim().split(/\s+/);
    const asked = keywordPhrase('北京大学').split(' ');
    const at = held.indexOf(asked[0]!);
    expect(held.slice(at, at + asked.length)).toEqual(asked);
  });

  it('reads pairs within the first PAIRED_CHARACTERS characters of unspaced text, the rest as written', () => {
    const long = '咖啡'.repeat(PAIRED_CHARACTERS);
    const read = keywordText(`${long}。`).trim().split(/\s+/);
    // Pairs and characters of the first PAIRED_CHARACTERS characters, then the rest of the run as one word.
    expect(read).toHaveLength(2 * PAIRED_CHARACTERS - 1 + 1);
    expect(read.at(-1)).toBe('咖啡'.repeat(PAIRED_CHARACTERS / 2));
    // A surrogate pair (a character of CJK Extension B) is never split at the cut.
    const wide = `${'咖'.repeat(PAIRED_CHARACTERS - 1)}𠀋𠀋`;
    expect(keywordText(wide)).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/);
  });
});

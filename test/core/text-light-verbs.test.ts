import { describe, expect, it } from 'vitest';
import { lightVerbsBeforeNouns } from '../../src/core/text/light-verbs.js';

describe('lightVerbsBeforeNouns', () => {
  it('finds a light verb in any form where an article follows it', () => {
    const words = (text: string) => text.split(' ');
    expect([...lightVerbsBeforeNouns(words('who took a picture of the kettle'))]).toEqual(['took']);
    expect([...lightVerbsBeforeNouns(words('did she make the call and give a talk'))]).toEqual(['make', 'give']);
    expect([...lightVerbsBeforeNouns(words('when was the haircut gotten an hour ago'))]).toEqual(['gotten']);
  });

  it('finds none without an article after it, nor another verb before one', () => {
    expect(lightVerbsBeforeNouns('who took kettles to the park'.split(' ')).size).toBe(0);
    expect(lightVerbsBeforeNouns('who bought a kettle'.split(' ')).size).toBe(0);
    expect(lightVerbsBeforeNouns('what did they take'.split(' ')).size).toBe(0);
  });
});

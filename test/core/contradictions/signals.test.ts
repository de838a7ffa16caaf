import { describe, expect, it } from 'vitest';
import { conflictSignals } from '../../../src/core/contradictions/signals.js';
import { extractSlots } from '../../../src/core/contradictions/slots.js';

/** What each signal says of the pair, as a contradiction's explanation carries it. */
const details = (a: string, b: string) => conflictSignals(a, b).map((s) => s.detail);
const kinds = (a: string, b: string) =>
  conflictSignals(a, b)
    .map((s) => s.kind)
    .sort();

describe('conflict signals', () => {
  it('sees a changed residence, employer, origin, favourite and opinion as exclusive values', () => {
    expect(kinds('I live in Paris', 'I moved to Berlin')).toEqual(['exclusive_value']);
    expect(conflictSignals('I live in Paris', 'I moved to Berlin')[0]).toMatchObject({
      detail: 'residence: paris vs berlin',
      strength: 0.9,
    });
    expect(kinds('Ana works at Google', 'Ana joined Microsoft last year')).toEqual(['exclusive_value']);
    expect(kinds("I'm from Spain", 'I am originally from Italy')).toEqual(['exclusive_value']);
    expect(kinds('My favourite colour is blue', 'My favorite colour is green')).toEqual(['exclusive_value']);
    expect(kinds('I love tea', 'I hate tea')).toEqual(['exclusive_value']);
    expect(kinds('The user prefers tabs', 'I prefer spaces')).toEqual(['exclusive_value']);
    // Where a thing is: "is in" of a definite description, not of a person (where she is this week).
    expect(details('The office is in Berlin.', 'The office moved to Munich.')).toEqual([
      'the office residence: berlin vs munich',
    ]);
    expect(kinds('The office is in Berlin.', 'The warehouse is in Hamburg.')).toEqual([]);
    expect(kinds('Ana is in Paris this week.', 'Ana moved to Lyon.')).toEqual([]);
  });

  it("sees a role's holder named anew, but not two roles, something said with 'a', or a pronoun", () => {
    expect(
      conflictSignals('Tomasz is the on-call engineer this week.', 'Ana is the on-call engineer this week.'),
    ).toEqual([
      { kind: 'exclusive_value', detail: 'on-call engineer holder: tomasz vs ana', strength: 0.9, minSimilarity: 0.5 },
    ]);
    expect(
      kinds('Then Sam is the owner of the deploy pipeline.', 'Lena is now the owner of the deploy pipeline.'),
    ).toEqual(['exclusive_value']);
    expect(kinds('Sam is our tech lead.', 'Priya is our tech lead.')).toEqual(['exclusive_value']);
    expect(kinds('Ana is the lead of the mobile team.', 'Bob is the lead of the web team.')).toEqual([]);
    expect(kinds('Caroline is the owner of a small bakery.', 'Melanie is the owner of a small bakery.')).toEqual([]);
    expect(kinds('He is the manager of billing.', 'Sam is the manager of billing.')).toEqual([]);
    // The holder named last, either way round, a "new" holder holding the same role.
    expect(
      details('Our contact at Acme is Jonas Berg.', 'Our new contact at Acme is Pia Lund, since Jonas left.'),
    ).toEqual(['contact of acme holder: jonas berg vs pia lund']);
    expect(kinds('Jonas Berg is our contact at Acme.', 'Our new contact at Acme is Pia Lund.')).toEqual([
      'exclusive_value',
    ]);
    expect(kinds('Our contact at Acme is Jonas Berg.', 'Our contact at Initech is Pia Lund.')).toEqual([]);
    expect(kinds('Sam is the owner of the deploy pipeline.', 'The owner of the deploy pipeline is Sam.')).toEqual([]);
    // The speaker's own: a personal assistant's user says who their manager is.
    expect(details('My manager is Priya.', 'My new manager is Tom since Priya left.')).toEqual([
      'my manager holder: priya vs tom',
    ]);
    expect(kinds('My manager is Priya.', 'The manager is Tom.')).toEqual([]);
  });

  it('sees no changed number, date or negation between statements naming two people or two things', () => {
    expect(kinds('Lena scored 72% on the algebra quiz.', 'Tom scored 90% on the algebra quiz.')).toEqual([]);
    expect(kinds('The Berlin office has 40 people.', 'The Munich office has 55 people.')).toEqual([]);
    expect(kinds('Lena likes the algebra course.', 'Tom does not like the algebra course.')).toEqual([]);
    expect(kinds("Lena's lesson is on May 3.", "Tom's lesson is on June 10.")).toEqual([]);
    // One person, or a statement naming nobody: still a change.
    expect(kinds('Lena scored 72% on the algebra quiz.', 'Lena scored 85% on the algebra quiz.')).toEqual([
      'number_change',
    ]);
    expect(kinds('The tests take 10 minutes on CI.', 'The tests take 12 minutes on CI now.')).toEqual([
      'number_change',
    ]);
  });

  it('sees changed dates and numbers, and does not count a date as a number', () => {
    expect(conflictSignals('the deadline is May 3', 'the deadline is June 10')).toEqual([
      { kind: 'date_change', detail: 'the deadline: may 3 vs june 10', strength: 0.9, minSimilarity: 0.5 },
    ]);
    expect(kinds('The meeting is on Monday', 'The meeting is on Friday')).toEqual(['date_change']);
    expect(kinds('We fly out on May 3', 'We fly out on June 10')).toEqual(['date_change']);
    expect(kinds('The server listens on port 8080', 'The server listens on port 9090')).toEqual(['number_change']);
    expect(kinds('The deadline is May 3', 'The deadline is May 3rd, 2026')).toEqual([]);
    expect(kinds('The pipeline needs 4 more engineers by Q2', 'The pipeline needs 6 more engineers by Q2')).toEqual([
      'number_change',
    ]);
  });

  it('does not take a label after # (a ticket, an issue) for an amount', () => {
    expect(kinds('Fixed bug #123 in the billing service', 'Fixed bug #456 in the billing service')).toEqual([]);
    expect(
      kinds(
        'The team in Cairo agreed that the data pipeline needs 4 more engineers by Q2. (#177)',
        'The team in Austin agreed that the data pipeline needs 4 more engineers by Q2. (#117)',
      ),
    ).toEqual([]);
    expect(kinds('Ticket #12 needs 3 reviewers', 'Ticket #12 needs 5 reviewers')).toEqual(['number_change']);
  });

  it('does not take numbers or dates in otherwise different statements for a change', () => {
    expect(
      kinds(
        'Mateo told Lukas that chess helps with stress (#220)',
        'Grace told Mateo that gardening helps with focus (#292)',
      ),
    ).toEqual([]);
    expect(kinds('The Lyon office opened in March with 12 people', 'The Oslo team hired 3 designers in June')).toEqual(
      [],
    );
  });

  it('sees a negation only when the rest of the statements agrees, with whole tokens', () => {
    expect(kinds('The API uses Postgres', 'The API does not use Postgres')).toEqual(['negation']);
    expect(kinds('I like tea', "I don't like coffee")).toEqual([]);
    expect(kinds('Is this the main branch', 'This is the main branch')).toEqual([]);
  });

  it("reads a described one's attribute, and a value with full stops inside it", () => {
    expect(details("The user's email is ana@example.com.", 'The user’s email is ana.berg@example.org.')).toEqual([
      'email: ana example.com vs ana.berg example.org',
    ]);
    expect(details("My sister's birthday is May 3.", "My sister's birthday is June 10.")).toEqual([
      'my sister birthday: may 3 vs june 10',
    ]);
    expect(extractSlots('The app version is 2.3.1.')).toMatchObject([{ attribute: 'app version', value: '2.3.1' }]);
    // Two people's, not one's anew.
    expect(kinds("The user's email is ana@example.com.", "The manager's email is tom@example.com.")).toEqual([]);
  });

  it('sees no negation between statements that each say something the other does not', () => {
    expect(kinds('Sam is allergic to peanuts.', 'Sam is not allergic to shellfish.')).toEqual([]);
    expect(kinds('The printer in the kitchen works.', 'The printer in the hallway does not work.')).toEqual([]);
    // What one says beyond the other on one side only is still the same thing negated.
    expect(kinds('Kim is not coming to the party.', 'Kim is coming to the party tomorrow.')).toEqual(['negation']);
  });

  it('sees a state and its opposite as a negation, with or without negation words on both sides', () => {
    expect(details('The office is closed on Sunday.', 'The office is open on Sunday.')).toEqual(['closed vs open']);
    expect(kinds('The feature flag is enabled.', 'The feature flag is disabled.')).toEqual(['negation']);
    expect(kinds('The office is not open.', 'The office is not closed.')).toEqual(['negation']);
    // "not open" says "closed"; two things in opposite states are two things.
    expect(kinds('The office is not open on Sunday.', 'The office is closed on Sunday.')).toEqual([]);
    expect(kinds('The Berlin office is open.', 'The Munich office is closed.')).toEqual([]);
    expect(kinds('The front door is open.', 'The back gate is closed.')).toEqual([]);
  });

  it('flips with the negation: one negated statement conflicts, two negated ones agree', () => {
    expect(conflictSignals('The API uses Postgres', 'The API does not use Postgres')).toEqual([
      { kind: 'negation', detail: 'one statement negates the other', strength: 0.75, minSimilarity: 0.7 },
    ]);
    expect(kinds("The API doesn't use Postgres", 'The API uses Postgres')).toEqual(['negation']);
    expect(kinds('The API does not use Postgres', 'The API never uses Postgres')).toEqual([]);
  });

  it('reads a negated liking as an opinion: "doesn\'t like" agrees with "hates" and disagrees with "likes"', () => {
    // One negation between them, and the same opinion: the negation alone had called these a contradiction.
    expect(kinds('Maya hates jazz.', "Maya doesn't like jazz.")).toEqual([]);
    expect(kinds('I dislike mornings.', 'I do not enjoy mornings.')).toEqual([]);
    expect(kinds("I can't stand running.", 'I never really liked running.')).toEqual([]);
    // The opinion turned: one signal, the opinion slot's (the negation's would say it twice).
    expect(details('Tom likes the new office.', 'Tom doesn’t like the new office.')).toEqual([
      'tom opinion of new office: positive vs negative',
    ]);
    expect(kinds("I don't like mornings.", 'I like mornings.')).toEqual(['exclusive_value']);
    expect(details('I love hiking.', 'I never liked hiking.')).toEqual(['opinion of hiking: positive vs negative']);
    // Not an opinion: the negation still decides.
    expect(kinds('We do not use Jenkins.', 'We use Jenkins.')).toEqual(['negation']);
  });

  it('sees a later statement say that what the earlier one states changed', () => {
    expect(
      conflictSignals(
        'The user prefers tabs over spaces for indentation.',
        'The user switched to spaces for indentation after the style guide changed.',
      ),
    ).toEqual([
      {
        kind: 'stated_change',
        detail: 'the later statement says it changed ("switched")',
        strength: 0.75,
        minSimilarity: 0.5,
      },
    ]);
    expect(
      kinds(
        'The migration to the new billing API is due on March 3, 2027.',
        'The billing API migration deadline moved to April 10, 2027.',
      ),
    ).toEqual(['stated_change']);
    expect(
      kinds(
        'Sam from the platform team owns the deploy pipeline.',
        'Deploys are now owned by Lena, since Sam moved to the data team.',
      ),
    ).toEqual(['stated_change']);
    expect(
      kinds(
        'We use Jenkins for the nightly builds of the app.',
        'We replaced Jenkins with GitHub Actions for the nightly builds of the app.',
      ),
    ).toEqual(['stated_change']);
    expect(
      kinds(
        'The nightly builds of the app run on Jenkins.',
        'The nightly builds of the app run on GitHub Actions instead of Jenkins.',
      ),
    ).toEqual(['stated_change']);
    // "now" between the subject and its verb; the reason's own words left out of the share of words in common.
    expect(
      details(
        'We decided to use PostgreSQL 16 instead of MySQL for the new ledger service.',
        'The ledger service now uses CockroachDB after the multi-region requirement came in.',
      ),
    ).toEqual(['the later statement says it changed ("now uses")']);
    expect(kinds('The team uses Jenkins for builds.', 'The team now uses GitHub Actions for builds.')).toEqual([
      'stated_change',
    ]);
    // An amount said changed, where the words around the numbers differ too much for a bare changed number.
    expect(
      details(
        'The Acme deal is worth 40k EUR a year.',
        'Acme reduced the deal to 30k EUR a year after the budget review.',
      ),
    ).toEqual(['the later statement says it changed ("reduced")']);
    expect(kinds('I raised two kids on my own.', 'My two kids are my whole world.')).toEqual([]);
  });

  it('sees a later statement say that a failure the earlier one reports is over', () => {
    const repairs: Array<[string, string, string]> = [
      [
        'Omar cannot log in since the password reset email never arrived.',
        'Omar received the password reset email after we whitelisted his domain; login works now.',
        'works now',
      ],
      [
        'Maya reported that CSV exports time out for files over 50 MB.',
        'The CSV export timeout for large files is fixed in 4.2.',
        'is fixed',
      ],
      ['The nightly build is broken on main.', 'We fixed the nightly build on main.', 'we fixed'],
      ['The nightly build is broken on main.', 'The nightly build on main works again.', 'works again'],
      ['Checkout is down in the EU region.', 'Checkout is back up in the EU region.', 'is back up'],
    ];
    for (const [earlier, later, said] of repairs)
      expect(details(earlier, later)).toEqual([`the later statement says it changed ("${said}")`]);
    // No failure said first, another thing repaired, or a fixed thing that was never broken.
    expect(kinds('The nightly build runs on main.', 'The nightly build on main works again.')).toEqual([]);
    expect(kinds('Sam cannot come to the party on Friday.', 'Sam fixed his bike on Friday.')).toEqual([]);
    expect(kinds('The nightly build is broken on main.', 'The nightly build on main has a fixed schedule.')).toEqual(
      [],
    );
  });

  it('sees no stated change in chat\'s "now", a question, one word in common, a change said first, or said again', () => {
    const same = 'The user switched to spaces for indentation after the style guide changed.';
    const unchanged: Array<[string, string]> = [
      // Chat says "now" of any moment (LoCoMo conversation 41); a question states nothing (conversation 30).
      [
        'John: Thanks, Maria! I appreciate your support, it really means a lot.',
        "John: Thanks, Maria! I'm off to spend some time with them now. Have a good day!",
      ],
      [
        'Gina: Hey Jon! Great to hear from you. Been having some tough times lately.',
        "Gina: Oh no, Jon! Sorry to hear that. Tough decision for you? How're you handling the changes?",
      ],
      [
        'Melanie: That must have been tough for you, Caroline. Respect for finding acceptance and helping others.',
        "Melanie: I'm so happy for you, Caroline. You found your true self and now you're helping others.",
      ],
      ['The best time to plant the roses is in early spring.', 'Now is the best time to plant the roses, in spring.'],
      ['The standup is in room 4 on the second floor.', 'The standup moved to 10am.'],
      // "instead of" names what it replaces, and the earlier statement does not say it.
      [
        'The payments tests share one clock across goroutines.',
        'We will inject a fake clock into the payments tests instead of sleeping.',
      ],
      // The change word only in the earlier statement.
      ['I moved to a new desk by the window in the office.', 'I sit at a new desk by the window in the office.'],
      [same, same],
    ];
    for (const [earlier, later] of unchanged) expect(kinds(earlier, later), later).toEqual([]);
  });

  it('raises nothing for the same statement twice', () => {
    expect(kinds('The build takes 5 minutes on May 3', 'The build takes 5 minutes on May 3')).toEqual([]);
  });

  it('raises nothing for paraphrases, agreeing values and history', () => {
    expect(kinds('I live in Paris', 'Paris is where I live')).toEqual([]);
    expect(kinds('I live in Paris', 'I live in Paris, France')).toEqual([]);
    expect(kinds('I lived in Paris for years', 'I live in Berlin')).toEqual([]);
    expect(kinds('I live in Paris', 'Ana lives in Berlin')).toEqual([]);
    expect(kinds('My name is Sam', 'I am called Sam')).toEqual([]);
    expect(kinds('His favourite colour is blue', 'His favourite colour is red')).toEqual([]);
    expect(kinds('Team uses React for the frontend', 'The frontend is built with React')).toEqual([]);
  });

  it('reads subjects and names carefully', () => {
    expect(extractSlots('Yesterday I moved to Rio de Janeiro with Ana.')).toEqual([
      { subject: 'self', attribute: 'residence', value: 'rio de janeiro', strength: 'strong' },
    ]);
    expect(extractSlots("Then Ana's favourite food is sushi and ramen")[0]).toMatchObject({
      subject: 'ana',
      attribute: 'favourite food',
      value: 'sushi',
    });
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshot } from '../support/browser.js';
import { expectCleanConsole, startExplorer, type Explorer } from '../support/explorer.js';

let explorer: Explorer;
const ids: Record<string, string> = {};

beforeAll(async () => {
  explorer = await startExplorer();
  const memd = explorer.memd.withWorkspace('team');
  await memd.workspaces.create({ id: 'team', name: 'Team' });
  const write = async (name: string, content: string) =>
    (ids[name] = (await memd.memories.create({ content })).memory.id);
  await write('tea', 'Alice prefers green tea in the morning.');
  await write('coffee', 'Alice drinks coffee only on Mondays.');
  await write('port', 'The staging database listens on port 5433.');
  await write('plants', 'The office plants need water every Thursday.');
}, 180_000);
afterAll(() => explorer?.stop());

/** A workspace of its own holding one memory, for a test that must not see the others'. */
const workspaceWith = async (id: string, content: string): Promise<void> => {
  await explorer.memd.workspaces.create({ id, name: id });
  await explorer.memd.memories.create({ workspace_id: id, content });
};

describe('explorer: recall playground', () => {
  it('finds a memory by recall, shows where each arm placed it, why it matched, and what was left out', async () => {
    const watched = await explorer.open('/ui/w/team/recall');
    const { page } = watched;
    await page.getByLabel('Query').fill('Which port does the staging database use?');
    await page.getByText('Options').click();
    await page.getByLabel('Limit').fill('1');
    await page.getByRole('button', { name: 'Recall', exact: true }).click();

    const results = page.locator('ol.results > li');
    await expect.poll(() => results.count()).toBe(1);
    await expect
      .poll(() => results.first().getByRole('link').textContent())
      .toBe('The staging database listens on port 5433.');
    await expect.poll(() => page.getByText('intents:').count()).toBe(1);

    // The arm table: the keyword arm placed it first.
    const table = page.getByRole('table', { name: /Where each arm placed/ });
    const header = await table.locator('thead th').allTextContents();
    const row = await table.locator('tbody tr').first().locator('td, th').allTextContents();
    expect(row[header.indexOf('keyword')]).toBe('1');
    expect(row[header.indexOf('vector')]).toMatch(/^\d+$/);

    // Why it matched: features and boosts.
    await results.first().getByText('Why it matched').click();
    const features = results.first().getByRole('table', { name: /Ranking features/ });
    await expect
      .poll(() => features.getByRole('rowheader').allTextContents())
      .toEqual(expect.arrayContaining(['keyword', 'similarity', 'coverage']));
    await expect
      .poll(() =>
        results
          .first()
          .getByText(/Boosts: scope ×1\.20/)
          .count(),
      )
      .toBe(1);
    await expect.poll(() => results.first().getByRole('meter', { name: 'relevance' }).count()).toBe(1);
    await expect.poll(() => results.first().getByRole('meter', { name: 'trust' }).count()).toBe(1);

    // Left out: the others, each with its reason.
    const leftOut = page.getByRole('region', { name: 'Left out' });
    await expect.poll(() => leftOut.locator('tbody tr').count()).toBeGreaterThan(0);
    const reasons = await leftOut.locator('tbody tr').allTextContents();
    expect(reasons.length).toBeGreaterThan(0);
    expect(reasons.join('\n')).toMatch(/under the floor|past the limit/);

    // Why not this one?
    await page.getByLabel('Why not this memory?').fill(ids.plants!);
    await page.getByRole('button', { name: 'Explain' }).click();
    await expect
      .poll(() => page.getByRole('status').textContent())
      .toMatch(/under the floor|No arm placed it|after the last place/);
    await screenshot(page, 'recall-light');
    expectCleanConsole(watched);
  });

  it('says which words no memory holds and the synonyms it searched instead', async () => {
    await workspaceWith('furniture', 'The old couch stands in the meeting room.');
    const watched = await explorer.open('/ui/w/furniture/recall');
    const { page } = watched;
    await page.getByLabel('Query').fill('Where is the sofa?');
    await page.getByRole('button', { name: 'Recall', exact: true }).click();
    await expect
      .poll(() => page.locator('ol.results > li').first().getByRole('link').textContent())
      .toBe('The old couch stands in the meeting room.');
    await expect.poll(() => page.getByText('No memory holds “sofa” (searched as couch)').count()).toBe(1);
    expectCleanConsole(watched);
  });

  it('finds a memory written on the page by recall, from the screen links, and opens why it matched', async () => {
    await workspaceWith('written', 'The coffee machine on the third floor is broken.');
    const watched = await explorer.open('/ui/w/written/memories');
    const { page } = watched;
    await page.getByText('Write a memory').click();
    await page.getByLabel('Content').fill('The espresso grinder is cleaned every Friday by Marta.');
    await page.getByRole('button', { name: 'Remember' }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toContain('Remembered');

    await page.getByRole('navigation', { name: 'Screens' }).getByRole('link', { name: 'Recall' }).click();
    await page.getByLabel('Query').fill('Who cleans the espresso grinder?');
    await page.getByRole('button', { name: 'Recall', exact: true }).click();
    const first = page.locator('ol.results > li').first();
    await expect
      .poll(() => first.getByRole('link').textContent())
      .toBe('The espresso grinder is cleaned every Friday by Marta.');
    // Every score the result carries: relevance, boosted score, trust, freshness, and its match signals.
    for (const meter of ['relevance', 'trust', 'freshness'])
      expect(await first.getByRole('meter', { name: meter, exact: true }).count()).toBe(1);
    expect(await first.getByText(/boosted score \d/).count()).toBe(1);
    expect((await first.getByTitle('match signal').allTextContents()).length).toBeGreaterThan(0);
    await first.getByText('Why it matched').click();
    await expect
      .poll(() =>
        first
          .getByRole('table', { name: /Ranking features/ })
          .getByRole('rowheader')
          .count(),
      )
      .toBeGreaterThan(0);
    await expect.poll(() => first.getByText(/^Boosts: scope/).isVisible()).toBe(true);
    expectCleanConsole(watched);
  });

  it('asks the same question as reflect and links its sources', async () => {
    const watched = await explorer.open('/ui/w/team/recall', { colorScheme: 'dark' });
    const { page } = watched;
    await page.getByLabel('Query').fill('What does Alice drink?');
    await page.getByRole('button', { name: 'Recall', exact: true }).click();
    await expect.poll(() => page.locator('ol.results > li').count()).toBeGreaterThan(0);
    await page.getByRole('button', { name: 'Reflect' }).click();
    const reflection = page.getByRole('region', { name: 'Reflection' });
    await expect.poll(() => reflection.getByText('extractive: no language model').count()).toBe(1);
    const sources = reflection.getByRole('link');
    await expect
      .poll(() => sources.allTextContents())
      .toEqual(expect.arrayContaining(['Alice prefers green tea in the morning.']));
    await screenshot(page, 'recall-reflect-dark');
    await sources.filter({ hasText: 'Alice prefers green tea in the morning.' }).click();
    await expect.poll(() => page.url()).toContain(`/ui/w/team/memories/${ids.tea}`);
    expectCleanConsole(watched);
  });
});

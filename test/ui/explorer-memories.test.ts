import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshot } from '../support/browser.js';
import { expectCleanConsole, startExplorer, type Explorer } from '../support/explorer.js';

let explorer: Explorer;
/** The page's background colour, evaluated in the page. */
const BACKGROUND = 'getComputedStyle(document.body).backgroundColor';

beforeAll(async () => {
  explorer = await startExplorer();
  await explorer.memd.workspaces.create({ id: 'notes', name: 'Notes' });
}, 180_000);
afterAll(() => explorer?.stop());

describe('explorer: memories', () => {
  it('catches what the page logs as an error (the check every screen test ends with)', async () => {
    const watched = await explorer.open('/ui/w/notes/memories');
    await watched.page.evaluate("console.error('something broke')");
    await expect.poll(() => watched.errors).toEqual(['console: something broke']);
    await watched.page.evaluate("setTimeout(() => { throw new Error('uncaught'); })");
    await expect.poll(() => watched.errors).toContain('exception: uncaught');
  });

  it('writes a memory, finds it in the browser by tag, and opens every field of it', async () => {
    const watched = await explorer.open('/ui/w/notes/memories');
    const { page } = watched;
    await page.getByText('Write a memory').click();
    await page.getByLabel('Content').fill('The staging database listens on port 5433.');
    await page.getByLabel('Tags', { exact: true }).fill('infra, databases');
    await page.getByRole('button', { name: 'Remember' }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toContain('Remembered');
    const stored = (await explorer.memd.memories.list({ workspace_id: 'notes', tags: ['databases'] })).memories;
    expect(stored.map((m) => m.content)).toEqual(['The staging database listens on port 5433.']);

    // Another memory, so that the tag filter has something to leave out.
    await explorer.memd.memories.create({
      workspace_id: 'notes',
      content: 'Lunch is at noon on Fridays.',
      tags: ['office'],
    });
    await page.getByLabel('Tags (all)').fill('databases');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await expect.poll(() => page.url()).toContain('tags=databases');
    const rows = page.getByRole('listbox', { name: 'Memories' }).getByRole('option');
    await expect
      .poll(() => rows.allTextContents())
      .toEqual([expect.stringContaining('The staging database listens on port 5433.')]);
    await screenshot(page, 'memories-light');

    // Keyboard: the list takes focus, Enter opens the active row.
    await page.getByRole('listbox', { name: 'Memories' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.url()).toContain(`/ui/w/notes/memories/${stored[0]!.id}`);
    await expect.poll(() => page.locator('h1').textContent()).toBe('The staging database listens on port 5433.');
    for (const field of ['content_hash', 'access_count', 'decay_factor', 'source_scope', 'created_at'])
      await expect.poll(() => page.getByRole('rowheader', { name: field, exact: true }).count()).toBe(1);
    await expect.poll(() => page.getByRole('heading', { name: 'Abstract' }).count()).toBe(1);
    expectCleanConsole(watched);
  });

  it('edits, pins, decays, archives, soft-deletes and hard-deletes a memory from its page', async () => {
    const { memory } = await explorer.memd.memories.create({
      workspace_id: 'notes',
      content: 'Deploys happen every Tuesday after the standup.',
      importance: 0.6,
    });
    const { memory: other } = await explorer.memd.memories.create({
      workspace_id: 'notes',
      content: 'The release train leaves on Wednesdays.',
    });
    await explorer.memd.associations.create(memory.id, {
      workspace_id: 'notes',
      target_id: other.id,
      relationship: 'related_to',
      strength: 0.7,
    });
    const watched = await explorer.open(`/ui/w/notes/memories/${memory.id}`);
    const { page } = watched;
    const current = async () => (await explorer.memd.memories.get(memory.id, { workspace_id: 'notes' })).memory;

    await expect
      .poll(() => page.getByRole('link', { name: 'The release train leaves on Wednesdays.' }).count())
      .toBe(1);
    await expect.poll(() => page.locator('.graphcanvas canvas').count()).toBeGreaterThan(0);
    await screenshot(page, 'memory-detail-light');

    await page.getByRole('button', { name: 'Edit' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit the memory' });
    await dialog.getByLabel('Content').fill('Deploys happen every Tuesday after the standup meeting.');
    await dialog.getByLabel('Tags', { exact: true }).fill('process');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect
      .poll(async () => (await current()).content)
      .toBe('Deploys happen every Tuesday after the standup meeting.');
    expect((await current()).tags).toEqual(['process']);

    await page.getByRole('button', { name: 'Pin', exact: true }).click();
    await expect.poll(async () => (await current()).pinned).toBe(true);
    await page.getByRole('button', { name: 'Unpin' }).click();
    await expect.poll(async () => (await current()).pinned).toBe(false);

    await page.getByLabel('Decay by').fill('0.2');
    await page.getByRole('button', { name: 'Decay', exact: true }).click();
    await expect.poll(async () => (await current()).importance).toBeCloseTo(0.4, 5);

    await page.getByRole('button', { name: 'Archive' }).click();
    await expect.poll(async () => (await current()).status).toBe('archived');
    await page.getByRole('button', { name: 'Restore' }).click();
    await expect.poll(async () => (await current()).status).toBe('active');

    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await expect.poll(async () => (await current()).status).toBe('deleted');

    await page.getByRole('button', { name: 'Delete for good…' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete for good' }).click();
    await expect.poll(() => page.url()).toMatch(/\/ui\/w\/notes\/memories$/);
    await expect(explorer.memd.memories.get(memory.id, { workspace_id: 'notes' })).rejects.toMatchObject({
      status: 404,
    });
    expectCleanConsole(watched);
  });

  it('filters by type, subtype, user, subject, status and dates, and the URL keeps the filters', async () => {
    const memd = explorer.memd.withWorkspace('filters');
    await memd.workspaces.create({ id: 'filters', name: 'Filters' });
    await memd.memories.create({
      content: 'To deploy, merge to main and tag a release.',
      type: 'procedural',
      subtype: 'runbook',
      user_id: 'alice',
      subject_id: 'deploys',
    });
    await memd.memories.create({
      content: 'Alice prefers deploying on Tuesdays.',
      type: 'semantic',
      user_id: 'alice',
      subject_id: 'alice',
    });
    await memd.memories.create({
      content: 'Bob rolled back the release on Friday.',
      type: 'episodic',
      user_id: 'bob',
      subject_id: 'deploys',
    });
    const { memory: old } = await memd.memories.create({
      content: 'The old deploy script lived in the tools repository.',
      type: 'procedural',
      user_id: 'alice',
    });
    await memd.memories.update(old.id, { status: 'archived' });

    const watched = await explorer.open('/ui/w/filters/memories');
    const { page } = watched;
    const rows = page.getByRole('listbox', { name: 'Memories' }).getByRole('option');
    const contents = async () =>
      (await rows.allTextContents())
        .map((text) => /(To deploy|Alice prefers|Bob rolled|The old deploy)/.exec(text)?.[1])
        .sort();
    await expect.poll(contents).toEqual(['Alice prefers', 'Bob rolled', 'To deploy']);
    const form = page.getByRole('form', { name: 'Filter memories' });
    const apply = () => form.getByRole('button', { name: 'Apply filters' }).click();

    await form.getByRole('checkbox', { name: 'procedural' }).check();
    await form.getByLabel('User').fill('alice');
    await apply();
    await expect.poll(contents).toEqual(['To deploy']);
    expect(page.url()).toMatch(/type=procedural.*user_id=alice|user_id=alice.*type=procedural/);

    await form.getByLabel('Status').selectOption('archived');
    await apply();
    await expect.poll(contents).toEqual(['The old deploy']);

    await form.getByRole('button', { name: 'Clear' }).click();
    await expect.poll(contents).toEqual(['Alice prefers', 'Bob rolled', 'To deploy']);
    await form.getByLabel('Subject').fill('deploys');
    await apply();
    await expect.poll(contents).toEqual(['Bob rolled', 'To deploy']);
    await form.getByLabel('Subtypes').fill('runbook');
    await apply();
    await expect.poll(contents).toEqual(['To deploy']);

    // Dates: nothing was written after tomorrow; everything before it.
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    await form.getByRole('button', { name: 'Clear' }).click();
    await expect.poll(contents).toHaveLength(3);
    await form.getByLabel('Created from').fill(tomorrow);
    await apply();
    await expect.poll(() => page.getByText('No memory matches these filters.').count()).toBe(1);
    await page.reload();
    await expect.poll(() => form.getByLabel('Created from').inputValue()).toBe(tomorrow);
    await expect.poll(() => page.getByText('No memory matches these filters.').count()).toBe(1);
    await form.getByLabel('Created from').fill('');
    await form.getByLabel('to', { exact: true }).fill(tomorrow);
    await apply();
    await expect.poll(contents).toHaveLength(3);
    expectCleanConsole(watched);
  });

  it('shows where a memory came from and its atomic facts; a fact links back to its source', async () => {
    const { memory } = await explorer.memd.memories.create({
      workspace_id: 'notes',
      content:
        'Jordan moved to Lisbon in March. Jordan works as a nurse at the city hospital. The commute takes twenty minutes.',
      user_id: 'jordan',
    });
    await explorer.server.drainTasks();
    const watched = await explorer.open(`/ui/w/notes/memories/${memory.id}`);
    const { page } = watched;
    const provenance = page.getByRole('region', { name: 'Provenance' });
    await expect
      .poll(() => provenance.locator('dt').allTextContents())
      .toEqual(expect.arrayContaining(['came from', 'user', 'session']));
    expect(
      await provenance
        .locator('div', { has: page.locator('dt', { hasText: /^user$/ }) })
        .locator('dd')
        .textContent(),
    ).toBe('jordan');
    const facts = page.getByRole('region', { name: /^Atomic facts/ });
    await expect.poll(() => facts.getByRole('heading').textContent()).toBe('Atomic facts (3)');
    expect((await facts.getByRole('link').allTextContents()).sort()).toEqual([
      'Jordan moved to Lisbon in March.',
      'Jordan works as a nurse at the city hospital.',
      'The commute takes twenty minutes.',
    ]);

    await facts.getByRole('link', { name: 'The commute takes twenty minutes.' }).click();
    await expect.poll(() => page.locator('h1').textContent()).toBe('The commute takes twenty minutes.');
    const source = page.getByRole('region', { name: 'Provenance' }).getByRole('link', { name: memory.id });
    await expect.poll(() => source.count()).toBe(1);
    await source.click();
    await expect.poll(() => page.url()).toMatch(new RegExp(`/memories/${memory.id}$`));
    expectCleanConsole(watched);
  });

  it('pages a large workspace from the server by cursor and keeps only the rows in view in the document', async () => {
    await explorer.memd.workspaces.create({ id: 'big', name: 'Big' });
    const operations = Array.from({ length: 1_000 }, (_, i) => ({
      op: 'create' as const,
      content: `Inventory item number ${i} is on shelf ${i % 37}.`,
    }));
    await explorer.memd.memories.batch({ workspace_id: 'big', operations });
    const watched = await explorer.open('/ui/w/big/memories');
    const { page } = watched;
    const list = page.getByRole('listbox', { name: 'Memories' });
    await expect.poll(() => page.getByText('1,000 memories match · 100 loaded').count()).toBe(1);
    const rendered = await list.getByRole('option').count();
    expect(rendered).toBeGreaterThan(5);
    expect(rendered).toBeLessThan(60);
    // Assistive tech hears the position among all that match, not among those loaded so far.
    expect(await list.getByRole('option').first().getAttribute('aria-setsize')).toBe('1000');

    // End moves to the last loaded row; reaching it loads the next page, and so on. Each press waits for its page:
    // a press while the previous page is still on its way lands on the same last row and loads nothing (a fixed
    // 300 ms between presses failed once in CI with 200 loaded).
    const loaded = async () =>
      Number(
        /· (\d+) loaded/.exec((await page.getByText(/1,000 memories match · \d+ loaded/).textContent()) ?? '')?.[1] ??
          0,
      );
    await list.focus();
    let count = await loaded();
    expect(count).toBe(100);
    for (let i = 0; i < 2; i++) {
      await page.keyboard.press('End');
      await expect.poll(loaded, { timeout: 15_000 }).toBeGreaterThan(count);
      count = await loaded();
    }
    expect(count).toBeGreaterThanOrEqual(300);
    expect(count).toBeLessThan(1_000);
    expect(await list.getByRole('option').count()).toBeLessThan(60);
    await screenshot(page, 'memories-many');
    expectCleanConsole(watched);
  });

  it('works from the keyboard alone: skip link, tab order, the list, a dialog that takes focus and closes on Escape', async () => {
    await explorer.memd.workspaces.create({ id: 'keys', name: 'Keys' });
    const { memory } = await explorer.memd.memories.create({
      workspace_id: 'keys',
      content: 'The keyboard test memory lives here.',
    });
    const watched = await explorer.open('/ui/w/keys/memories');
    const { page } = watched;
    const focused = () =>
      page.evaluate(
        'document.activeElement?.getAttribute("role") ?? document.activeElement?.textContent?.trim() ?? document.activeElement?.id',
      );
    const outline = () => page.evaluate('getComputedStyle(document.activeElement).outlineStyle');
    await expect.poll(() => page.getByRole('listbox', { name: 'Memories' }).getByRole('option').count()).toBe(1);

    // The first Tab reaches the skip link, which moves focus to the main content.
    await page.keyboard.press('Tab');
    expect(await focused()).toBe('Skip to content');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.evaluate('document.activeElement?.id')).toBe('main');

    // Tab reaches the list (past the new-memory form and the filters), with a visible focus ring.
    let presses = 0;
    while ((await focused()) !== 'listbox' && presses < 80) {
      await page.keyboard.press('Tab');
      presses++;
    }
    expect(await focused()).toBe('listbox');
    expect(await outline()).not.toBe('none');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.url()).toContain(`/ui/w/keys/memories/${memory.id}`);

    // On the memory's page: Tab to the hard delete; its dialog takes focus (Cancel first) and Escape closes it.
    await expect.poll(() => page.getByRole('button', { name: 'Delete for good…' }).count()).toBe(1);
    presses = 0;
    while ((await focused()) !== 'Delete for good…' && presses < 80) {
      await page.keyboard.press('Tab');
      presses++;
    }
    expect(await focused()).toBe('Delete for good…');
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Delete this memory for good?' });
    await expect.poll(() => dialog.isVisible()).toBe(true);
    expect(await focused()).toBe('Cancel');
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.isVisible()).toBe(false);
    expect(await focused()).toBe('Delete for good…');
    expect((await explorer.memd.memories.get(memory.id, { workspace_id: 'keys' })).memory.status).toBe('active');
    expectCleanConsole(watched);
  });

  it('looks right in dark mode', async () => {
    const watched = await explorer.open('/ui/w/notes/memories', { colorScheme: 'dark' });
    const { page } = watched;
    await expect.poll(() => page.getByRole('option').count()).toBeGreaterThan(0);
    const background = await page.evaluate(BACKGROUND);
    expect(background).toBe('rgb(22, 23, 26)');
    await screenshot(page, 'memories-dark');

    // The toggle overrides the system's choice, and is remembered.
    await page.getByRole('button', { name: /Change theme/ }).click(); // system -> light
    await expect.poll(() => page.evaluate(BACKGROUND)).toBe('rgb(247, 247, 248)');
    await page.reload();
    await expect.poll(() => page.evaluate('document.documentElement.dataset.theme')).toBe('light');
    expectCleanConsole(watched);
  });
});

import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshot } from '../support/browser.js';
import { expectCleanConsole, startExplorer, type Explorer } from '../support/explorer.js';

let explorer: Explorer;

beforeAll(async () => {
  explorer = await startExplorer();
}, 180_000);
afterAll(() => explorer?.stop());

describe('explorer: workspaces', () => {
  it('creates a workspace, shows its counts by type and status, renames it', async () => {
    const watched = await explorer.open('/ui/');
    const { page } = watched;
    const create = page.getByRole('form', { name: 'Create a workspace' });
    await create.getByLabel('Name').fill('Research');
    await create.getByLabel(/^Id/).fill('research');
    await create.getByRole('button', { name: 'Create workspace' }).click();
    await expect.poll(async () => (await explorer.memd.workspaces.get('research')).workspace.name).toBe('Research');

    const memd = explorer.memd.withWorkspace('research');
    await memd.memories.create({ content: 'Alice prefers green tea.', type: 'semantic' });
    await memd.memories.create({ content: 'How to deploy: merge to main, then tag a release.', type: 'procedural' });
    const { memory: gone } = await memd.memories.create({
      content: 'We met the auditors yesterday.',
      type: 'episodic',
    });
    await memd.memories.delete(gone.id);
    await page.reload();

    const panel = page.getByRole('complementary', { name: 'Workspace Research' });
    const byType = panel.getByRole('table', { name: 'Active memories by type' });
    await expect
      .poll(() => byType.locator('tr').allTextContents())
      .toEqual(['semantic1', 'episodic0', 'procedural1', 'working0']);
    const byStatus = panel.getByRole('table', { name: 'Memories by status' });
    await expect.poll(() => byStatus.locator('tr').allTextContents()).toEqual(['active2', 'archived0', 'deleted1']);
    await expect.poll(() => panel.getByText(/new memories in the last/).count()).toBe(1);
    await screenshot(page, 'workspaces-light');

    await panel.getByRole('form', { name: 'Rename the workspace' }).getByLabel('Name').fill('Research notes');
    await panel.getByRole('button', { name: 'Rename' }).click();
    await expect
      .poll(async () => (await explorer.memd.workspaces.get('research')).workspace.name)
      .toBe('Research notes');
    await expect.poll(() => page.getByRole('row', { name: /Research notes/ }).count()).toBe(1);
    expectCleanConsole(watched);
  });

  it('exports a workspace to a file and imports that file into another, with progress and a report', async () => {
    await explorer.memd.workspaces.create({ id: 'source', name: 'Source' });
    const memd = explorer.memd.withWorkspace('source');
    const { memory: a } = await memd.memories.create({ content: 'The release train leaves on Wednesdays.' });
    const { memory: b } = await memd.memories.create({ content: 'Hotfixes skip the release train.' });
    await memd.associations.create(b.id, { target_id: a.id, relationship: 'refines', strength: 0.8 });

    const watched = await explorer.open('/ui/workspaces');
    const { page } = watched;
    await page.getByRole('button', { name: 'Source', exact: true }).click();
    const panel = page.getByRole('complementary', { name: 'Workspace Source' });
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      panel.getByRole('button', { name: 'Export (NDJSON)' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('source.ndjson');
    const file = readFileSync((await download.path())!, 'utf8');
    const lines = file
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string });
    expect(lines.map((l) => l.type)).toEqual(['header', 'memory', 'memory', 'association', 'footer']);
    await expect.poll(() => panel.getByText('2 of 2 memories').count()).toBe(1);

    await explorer.memd.workspaces.create({ id: 'copy', name: 'Copy' });
    await page.reload();
    await page.getByRole('button', { name: 'Copy', exact: true }).click();
    const target = page.getByRole('complementary', { name: 'Workspace Copy' });
    // The progress bar shows while the file goes up and is gone once the report is in: every text it showed is kept.
    await page.evaluate(`(() => {
      window.__progress = [];
      new MutationObserver(() => {
        const label = document.querySelector('.progress progress')?.getAttribute('aria-label');
        if (label && label !== window.__progress.at(-1)) window.__progress.push(label);
      }).observe(document.body, { childList: true, subtree: true, characterData: true, attributes: true });
    })()`);
    await target
      .getByLabel('Import an export file into this workspace')
      .setInputFiles({ name: 'source.ndjson', mimeType: 'application/x-ndjson', buffer: Buffer.from(file) });
    await expect
      .poll(() => target.getByRole('status').textContent())
      .toBe('Imported 2 memories and 1 associations; 0 duplicates skipped.');
    const kib = Math.round(Buffer.byteLength(file) / 1024);
    const shown = (await page.evaluate('window.__progress')) as string[];
    expect(shown[0]).toBe(`0 of ${kib} KiB sent`);
    expect(shown.at(-1)).toBe(`${kib} of ${kib} KiB sent`);
    expect(await target.locator('.progress').count()).toBe(0);
    const copied = await explorer.memd.memories.list({ workspace_id: 'copy' });
    expect(copied.memories.map((m) => m.content).sort()).toEqual([
      'Hotfixes skip the release train.',
      'The release train leaves on Wednesdays.',
    ]);
    expectCleanConsole(watched);
  });

  it('deletes a workspace only once its id is typed in the confirmation', async () => {
    await explorer.memd.workspaces.create({ id: 'doomed', name: 'Doomed' });
    const watched = await explorer.open('/ui/workspaces', { colorScheme: 'dark' });
    const { page } = watched;
    await page.getByRole('button', { name: 'Doomed', exact: true }).click();
    await page.getByRole('button', { name: 'Delete workspace…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete Doomed?' });
    // Until the id is typed, the button waits.
    expect(await dialog.getByRole('button', { name: 'Delete for good' }).isDisabled()).toBe(true);
    await dialog.getByLabel(/to confirm/).fill('doome');
    expect(await dialog.getByRole('button', { name: 'Delete for good' }).isDisabled()).toBe(true);
    await dialog.getByLabel(/to confirm/).fill('doomed');
    await screenshot(page, 'workspaces-delete-dark');
    // The click returns before the page's DELETE is answered: ask the server only after it was.
    const deleted = page.waitForResponse(
      (r) => r.request().method() === 'DELETE' && r.url().endsWith('/v1/workspaces/doomed'),
    );
    await dialog.getByRole('button', { name: 'Delete for good' }).click();
    expect((await deleted).status()).toBe(204);
    await expect(explorer.memd.workspaces.get('doomed')).rejects.toMatchObject({ status: 404 });
    await expect.poll(() => page.getByRole('button', { name: 'Doomed', exact: true }).count()).toBe(0);
    expectCleanConsole(watched);
  });
});

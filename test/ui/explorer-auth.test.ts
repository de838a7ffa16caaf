import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshot } from '../support/browser.js';
import { expectCleanConsole, startExplorer, type Explorer } from '../support/explorer.js';

const ADMIN_KEY = 'explorer-admin-key-0123456789';
let explorer: Explorer;

beforeAll(async () => {
  explorer = await startExplorer({ env: { MEMD_ADMIN_KEY: ADMIN_KEY }, apiKey: ADMIN_KEY });
  await explorer.memd.workspaces.create({ id: 'guarded', name: 'Guarded' });
}, 180_000);
afterAll(() => explorer?.stop());

/** The browser reports each refused request (401) as a console error: those are expected here, nothing else. */
const REFUSED = /status of 401/;

describe('explorer: with auth on', () => {
  it('asks for the key once, refuses a wrong one, and keeps the right one for the tab', async () => {
    const watched = await explorer.open('/ui/workspaces');
    const { page } = watched;
    const prompt = page.getByRole('dialog', { name: 'API key' });
    await expect.poll(() => prompt.isVisible()).toBe(true);
    await screenshot(page, 'auth-prompt-light');

    await prompt.getByLabel('Key').fill('not-the-key');
    await prompt.getByRole('button', { name: 'Use this key' }).click();
    await expect.poll(() => prompt.getByRole('alert').textContent()).toBe('The server did not accept the key.');

    await prompt.getByLabel('Key').fill(ADMIN_KEY);
    await prompt.getByRole('button', { name: 'Use this key' }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Guarded', exact: true }).count()).toBe(1);
    expect(await prompt.isVisible()).toBe(false);

    // Kept for the tab: a reload does not ask again.
    await page.reload();
    await expect.poll(() => page.getByRole('button', { name: 'Guarded', exact: true }).count()).toBe(1);
    expect(await prompt.isVisible()).toBe(false);
    expectCleanConsole(watched, [REFUSED]);
  });
});

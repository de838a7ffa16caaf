import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshot } from '../support/browser.js';
import { expectCleanConsole, startExplorer, type Explorer } from '../support/explorer.js';

let explorer: Explorer;

beforeAll(async () => {
  explorer = await startExplorer();
}, 180_000);
afterAll(() => explorer?.stop());

/** Two clusters of linked memories and one bridge between them. */
async function twoClusters(workspace: string): Promise<string[]> {
  const memd = explorer.memd.withWorkspace(workspace);
  await memd.workspaces.create({ id: workspace, name: workspace });
  const contents = [
    'Billing runs on Postgres 15.',
    'Invoices are generated nightly by the billing job.',
    'The billing job retries failed payments twice.',
    'Refunds are approved by finance within two days.',
    'The mobile app is written in Kotlin.',
    'The mobile app release goes through the app store review.',
    'Crash reports of the mobile app go to the on-call engineer.',
    'The on-call rotation changes every Monday.',
  ];
  const { results } = await memd.memories.batch({
    operations: contents.map((content) => ({ op: 'create' as const, content })),
  });
  const ids = results.map((r) => r.memory_id!);
  const link = (a: number, b: number, strength = 0.9) =>
    memd.associations.create(ids[a]!, { target_id: ids[b]!, relationship: 'related_to', strength });
  for (const [a, b] of [
    [0, 1],
    [1, 2],
    [2, 0],
    [1, 3],
    [4, 5],
    [5, 6],
    [6, 4],
    [6, 7],
  ] as const)
    await link(a, b);
  await link(3, 4, 0.2);
  return ids;
}

describe('explorer: graph', () => {
  it('draws the association graph with its communities and most central memories, and links through', async () => {
    const ids = await twoClusters('graphs');
    const watched = await explorer.open('/ui/w/graphs/graph');
    const { page } = watched;
    await expect.poll(() => page.locator('.graphcanvas canvas').count(), { timeout: 20_000 }).toBeGreaterThan(0);
    await expect.poll(() => page.getByText('laying out…').count(), { timeout: 20_000 }).toBe(0);
    const summary = page.getByRole('complementary', { name: 'Graph summary' });
    await expect.poll(() => summary.getByText('memories', { exact: true }).count()).toBe(1);
    const communities = summary.getByRole('listitem').filter({ has: page.locator('.swatch') });
    await expect.poll(() => communities.count()).toBeGreaterThanOrEqual(2);
    await expect
      .poll(() => page.getByRole('img', { name: /Association graph: 8 memories, 9 associations/ }).count())
      .toBe(1);

    // A community focused: its button says so.
    await communities.first().getByRole('button').click();
    await expect.poll(() => communities.first().getByRole('button').getAttribute('aria-pressed')).toBe('true');

    // Zoom and pan: the picture changes with each (compared as pixels of the canvas).
    const stage = page.locator('.graphcanvas');
    let before = await stage.screenshot();
    await page.getByRole('button', { name: 'Zoom in' }).click();
    await expect.poll(async () => (await stage.screenshot()).equals(before)).toBe(false);
    await page.waitForTimeout(300); // the zoom's animation (200 ms) ends
    before = await stage.screenshot();
    const box = (await stage.boundingBox())!;
    await page.mouse.move(box.x + 12, box.y + 12);
    await page.mouse.down();
    await page.mouse.move(box.x + 140, box.y + 100, { steps: 8 });
    await page.mouse.up();
    await expect.poll(async () => (await stage.screenshot()).equals(before)).toBe(false);
    expect(page.url()).toMatch(/\/ui\/w\/graphs\/graph$/);
    await page.getByRole('button', { name: 'Fit the whole graph' }).click();
    // The screenshot once the camera's animation has ended: two pictures of the stage a moment apart agree.
    await expect
      .poll(async () => {
        const first = await stage.screenshot();
        await page.waitForTimeout(100);
        return first.equals(await stage.screenshot());
      })
      .toBe(true);
    await screenshot(page, 'graph-light');

    // Click-through from the keyboard-reachable list of the most central memories.
    const central = summary.getByRole('list').last().getByRole('link').first();
    const href = await central.getAttribute('href');
    expect(ids.some((id) => href?.endsWith(`/memories/${id}`))).toBe(true);
    await central.click();
    await expect.poll(() => page.url()).toContain(href!);
    expectCleanConsole(watched);
  });

  it('opens a memory when its node is clicked', async () => {
    const memd = explorer.memd.withWorkspace('lonely');
    await memd.workspaces.create({ id: 'lonely', name: 'Lonely' });
    const { memory } = await memd.memories.create({ content: 'The only memory of this workspace.' });
    const watched = await explorer.open('/ui/w/lonely/graph', { colorScheme: 'dark' });
    const { page } = watched;
    const canvas = page.getByRole('img', { name: /Association graph: 1 memories/ });
    await expect.poll(() => canvas.locator('canvas').count(), { timeout: 20_000 }).toBeGreaterThan(0);
    await screenshot(page, 'graph-single-dark');
    // A lone node is drawn at the centre of the stage.
    const box = (await canvas.boundingBox())!;
    await expect
      .poll(
        async () => {
          await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
          return page.url();
        },
        { timeout: 10_000 },
      )
      .toContain(`/ui/w/lonely/memories/${memory.id}`);
    expectCleanConsole(watched);
  });

  it('shows the dark theme on the graph too', async () => {
    await twoClusters('graphs-dark');
    const watched = await explorer.open('/ui/w/graphs-dark/graph', { colorScheme: 'dark' });
    const { page } = watched;
    await expect.poll(() => page.locator('.graphcanvas canvas').count(), { timeout: 20_000 }).toBeGreaterThan(0);
    await expect.poll(() => page.getByText('laying out…').count(), { timeout: 20_000 }).toBe(0);
    await screenshot(page, 'graph-dark');
    expectCleanConsole(watched);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshot } from '../support/browser.js';
import { expectCleanConsole, startExplorer, type Explorer } from '../support/explorer.js';

let explorer: Explorer;

beforeAll(async () => {
  explorer = await startExplorer();
  await explorer.memd.workspaces.create({ id: 'chat', name: 'Chat' });
}, 180_000);
afterAll(() => explorer?.stop());

const chat = () => explorer.memd.withWorkspace('chat');

describe('explorer: conversation', () => {
  it('starts a session, counts its time to live down, sets working memory and extends the session', async () => {
    const watched = await explorer.open('/ui/w/chat/conversation/sessions');
    const { page } = watched;
    const start = page.getByRole('form', { name: 'Start a session' });
    await start.getByLabel('User').fill('alice');
    await start.getByLabel('TTL (s)').fill('600');
    await start.getByRole('button', { name: 'Start a session' }).click();
    const timer = page.getByRole('timer', { name: 'time to live' });
    await expect.poll(() => timer.textContent()).toMatch(/expires in (10:00|9:5\d)/);
    const first = await timer.locator('strong').textContent();
    await expect.poll(() => timer.locator('strong').textContent(), { timeout: 4_000 }).not.toBe(first);

    const entry = page.getByRole('form', { name: 'Set a working-memory entry' });
    await entry.getByLabel('Key').fill('current_task');
    await entry.getByLabel('Value (JSON or text)').fill('{"ticket": 42}');
    await entry.getByRole('button', { name: 'Set' }).click();
    await expect.poll(() => page.getByRole('rowheader', { name: 'current_task' }).count()).toBe(1);
    const [session] = (await chat().sessions.list({ workspace_id: 'chat' })).sessions;
    expect(await chat().sessions.workingMemory.get(session!.id)).toEqual({ current_task: { ticket: 42 } });

    const before = session!.expires_at;
    await page.waitForTimeout(1_100);
    await page.getByRole('button', { name: 'Touch (extend)' }).click();
    await expect.poll(async () => (await chat().sessions.get(session!.id)).session.expires_at > before).toBe(true);
    await screenshot(page, 'sessions-light');
    expectCleanConsole(watched);
  });

  it('shows a thread with its decomposition state and decomposes it from the page', async () => {
    const { thread } = await chat().threads.create({ title: 'Planning the offsite' });
    const id = thread.thread_id;
    await chat().threads.append(id, {
      messages: [
        { role: 'user', content: 'We decided to hold the offsite in Lisbon in September.' },
        { role: 'assistant', content: 'Noted: the offsite is in Lisbon in September.' },
        { role: 'user', content: 'Maria will book the venue and the flights for the whole team.' },
      ],
    });
    const watched = await explorer.open('/ui/w/chat/conversation/threads');
    const { page } = watched;
    const panel = page.getByRole('complementary', { name: `Thread ${id}` });
    await expect.poll(() => panel.getByRole('list', { name: 'Messages' }).getByRole('listitem').count()).toBe(3);
    const states = panel.getByRole('list', { name: 'Messages' }).locator('.badge');
    await expect.poll(async () => (await states.allTextContents()).filter((t) => t === 'waiting').length).toBe(3);
    await panel.getByRole('button', { name: 'Decompose now' }).click();
    await expect
      .poll(() => panel.getByRole('status').textContent())
      .toMatch(/Read 3 messages \(0–2\), created \d+ memories\./);
    await expect.poll(async () => (await states.allTextContents()).filter((t) => t === 'decomposed').length).toBe(3);
    expect((await chat().threads.full(id)).thread.last_decomposed_index).toBe(2);
    await screenshot(page, 'threads-light');
    expectCleanConsole(watched);
  });

  it('lays contradictions side by side and resolves them: keep B, and merge', async () => {
    const memd = explorer.memd.withWorkspace('facts');
    await memd.workspaces.create({ id: 'facts', name: 'Facts' });
    const { memory: google } = await memd.memories.create({ content: 'Ana works at Google' });
    const { memory: microsoft } = await memd.memories.create({ content: 'Ana joined Microsoft last spring' });
    const { memory: paris } = await memd.memories.create({ content: 'I live in Paris' });
    const { memory: berlin } = await memd.memories.create({ content: 'I moved to Berlin' });
    await explorer.server.drainTasks();

    const watched = await explorer.open('/ui/w/facts/conversation/contradictions');
    const { page } = watched;
    await page.getByRole('button', { name: 'Scan the workspace' }).click();
    const cards = page.locator('section.contradiction');
    await expect.poll(() => cards.count()).toBe(2);
    const ana = cards.filter({ hasText: 'Ana works at Google' });
    await expect
      .poll(() => ana.locator('.side').allTextContents())
      .toEqual([
        expect.stringContaining('Ana works at Google'),
        expect.stringContaining('Ana joined Microsoft last spring'),
      ]);
    await screenshot(page, 'contradictions-light');

    await ana.getByRole('button', { name: 'Keep B', exact: true }).click();
    await expect.poll(() => cards.count()).toBe(1);
    expect((await memd.memories.get(google.id)).memory.status).toBe('deleted');
    expect((await memd.memories.get(microsoft.id)).memory.status).toBe('active');

    const home = cards.first();
    await home.getByRole('button', { name: 'Merge…' }).click();
    await home.getByLabel('Merged memory').fill('I lived in Paris and moved to Berlin.');
    await home.getByRole('button', { name: 'Merge into one' }).click();
    await expect.poll(() => page.getByText('No open contradiction.').count()).toBe(1);
    const merged = await memd.memories.list();
    expect(merged.memories.map((m) => m.content)).toContain('I lived in Paris and moved to Berlin.');
    expect((await memd.memories.get(paris.id)).memory.status).not.toBe('active');
    expect((await memd.memories.get(berlin.id)).memory.status).not.toBe('active');
    expectCleanConsole(watched);
  });

  it('counts open contradictions on the workspaces screen, and resolves them: keep A, and keep both', async () => {
    const memd = explorer.memd.withWorkspace('facts-2');
    await memd.workspaces.create({ id: 'facts-2', name: 'Facts two' });
    const { memory: oracle } = await memd.memories.create({ content: 'Bruno works at Oracle' });
    const { memory: amazon } = await memd.memories.create({ content: 'Bruno joined Amazon last year' });
    const { memory: rome } = await memd.memories.create({ content: 'I live in Rome' });
    const { memory: madrid } = await memd.memories.create({ content: 'I moved to Madrid' });
    await explorer.server.drainTasks();
    await memd.contradictions.scan('facts-2');

    const watched = await explorer.open('/ui/workspaces');
    const { page } = watched;
    await page.getByRole('button', { name: 'Facts two', exact: true }).click();
    const panel = page.getByRole('complementary', { name: 'Workspace Facts two' });
    await expect.poll(() => panel.getByRole('link', { name: '2 open contradictions' }).count()).toBe(1);
    await expect
      .poll(() =>
        page
          .getByRole('row', { name: /Facts two/ })
          .getByRole('link', { name: '2', exact: true })
          .count(),
      )
      .toBe(1);
    await panel.getByRole('link', { name: '2 open contradictions' }).click();
    await expect.poll(() => page.url()).toContain('/ui/w/facts-2/conversation/contradictions');

    const cards = page.locator('section.contradiction');
    await expect.poll(() => cards.count()).toBe(2);
    await cards
      .filter({ hasText: 'Bruno works at Oracle' })
      .getByRole('button', { name: 'Keep A', exact: true })
      .click();
    await expect.poll(() => cards.count()).toBe(1);
    expect((await memd.memories.get(oracle.id)).memory.status).toBe('active');
    expect((await memd.memories.get(amazon.id)).memory.status).toBe('deleted');

    await cards.first().getByRole('button', { name: 'Keep both', exact: true }).click();
    await expect.poll(() => page.getByText('No open contradiction.').count()).toBe(1);
    expect((await memd.memories.get(rome.id)).memory.status).toBe('active');
    expect((await memd.memories.get(madrid.id)).memory.status).toBe('active');
    expect((await memd.contradictions.list('facts-2')).count).toBe(0);
    expectCleanConsole(watched);
  });

  it('shows the briefing of the workspace', async () => {
    await chat().memories.create({ content: 'The quarterly report is due on Friday.' });
    const watched = await explorer.open('/ui/w/chat/conversation/briefing', { colorScheme: 'dark' });
    const { page } = watched;
    await expect.poll(() => page.locator('.briefing').textContent()).toMatch(/new memor/);
    await expect.poll(() => page.getByRole('link', { name: 'The quarterly report is due on Friday.' }).count()).toBe(1);
    await screenshot(page, 'briefing-dark');
    expectCleanConsole(watched);
  });
});

import { expect } from 'vitest';
import { eventually, MODEL_ANSWERS, type McpTestClient } from './support.js';

type Json = Record<string, any>;

export interface ScenarioOptions {
  /** Runs the server's background work (enrichment, contradiction checks) before a poll; omit when it runs by itself. */
  settle?: () => Promise<unknown>;
}

/**
 * Every tool of the MCP server, called through the SDK's client the way an agent would: remember and find, link and
 * follow, a session with working memory and a Python sandbox, a chat thread, a contradiction, an export, forgetting.
 * Each call's result is checked for what the tool is for; the caller checks that no listed tool was left out.
 */
export async function exerciseEveryTool(
  mcp: McpTestClient,
  workspace: string,
  options: ScenarioOptions = {},
): Promise<void> {
  const ws = { workspace_id: workspace };

  // remember, recall, reflect
  const problem = (
    await mcp.call('remember', {
      ...ws,
      content: 'The nightly build fails on the ARM runners.',
      type: 'episodic',
      subtype: 'problem',
      importance: 0.8,
      tags: ['ci'],
    })
  ).memory;
  expect(problem).toMatchObject({
    workspace_id: workspace,
    content: 'The nightly build fails on the ARM runners.',
    type: 'episodic',
    tags: ['ci'],
  });
  const fix = (
    await mcp.call('remember', {
      ...ws,
      content: 'Pinning the toolchain to version 1.2 fixed the ARM build.',
      tags: ['ci'],
    })
  ).memory;
  const recalled = await mcp.call('recall', { ...ws, query: 'ARM build', tags: ['ci'], limit: 5 });
  expect(recalled.memories.map((m: Json) => m.id).sort()).toEqual([problem.id, fix.id].sort());
  expect(recalled.memories[0].relevance_score).toBeGreaterThan(0);
  const reflected = await mcp.call('reflect', { ...ws, query: 'How was the ARM build fixed?' });
  expect(reflected).toMatchObject({ reflection: MODEL_ANSWERS.reflection, synthesis: 'llm' });
  expect(reflected.source_memories).toHaveLength(1);

  // associate, traverse, update_memory
  const linked = await mcp.call('associate', {
    ...ws,
    memory_id: fix.id,
    target_id: problem.id,
    relationship: 'solves',
    strength: 0.9,
  });
  expect(linked).toMatchObject({
    created: true,
    association: { source_id: fix.id, target_id: problem.id, relationship: 'solves', strength: 0.9 },
  });
  const paths = await mcp.call('traverse', { ...ws, memory_id: fix.id, direction: 'outgoing' });
  expect(paths.paths.map((p: Json) => p.nodes)).toContainEqual([fix.id, problem.id]);
  const updated = await mcp.call('update_memory', {
    ...ws,
    memory_id: problem.id,
    importance: 0.3,
    tags: ['ci', 'arm'],
  });
  expect(updated.memory).toMatchObject({ id: problem.id, importance: 0.3, tags: ['ci', 'arm'] });

  // briefing, a session: working memory, a write through it, commit
  const briefing = await mcp.call('briefing', ws);
  expect(briefing.recent_memories.map((m: Json) => m.id)).toContain(fix.id);
  expect(briefing).not.toHaveProperty('memories');
  const started = await mcp.call('session_start', {
    ...ws,
    working_memory: { editor_preference: 'I always prefer dark mode in the editor' },
    briefing: true,
  });
  const sessionId: string = started.session.id;
  expect(started.session.workspace_id).toBe(workspace);
  expect(started.briefing.recent_memories.length).toBeGreaterThan(0);
  const entry = await mcp.call('working_memory_set', {
    session_id: sessionId,
    key: 'deadline',
    value: { date: '2026-04-01' },
  });
  expect(entry).toMatchObject({ key: 'deadline', value: { date: '2026-04-01' } });
  expect(await mcp.call('working_memory_get', { session_id: sessionId })).toEqual({
    editor_preference: 'I always prefer dark mode in the editor',
    deadline: { date: '2026-04-01' },
  });
  expect(await mcp.call('working_memory_get', { session_id: sessionId, key: 'deadline' })).toEqual({
    deadline: { date: '2026-04-01' },
  });
  const throughSession = (
    await mcp.call('remember', { content: 'The team meets on Tuesdays at ten.', session_id: sessionId })
  ).memory;
  expect(throughSession).toMatchObject({ workspace_id: workspace, session_id: sessionId });
  const committed = await mcp.call('session_commit', { session_id: sessionId });
  expect(committed).toMatchObject({ session_id: sessionId, breakdown: { preferences: 1 } });

  // the session's Python sandbox
  const executed = await mcp.call('context_execute', { session_id: sessionId, code: 'answer = 20 + 22\nanswer' });
  expect(executed).toMatchObject({ result: '42', error: null, variables_changed: ['answer'] });
  const loaded = await mcp.call('context_load', { session_id: sessionId, var: 'found', query: 'ARM build' });
  expect(loaded).toMatchObject({ variable: 'found' });
  expect(loaded.count).toBeGreaterThan(0);
  expect(await mcp.call('context_inspect', { session_id: sessionId, variable: 'answer' })).toMatchObject({
    variable: 'answer',
    type: 'int',
    preview: '42',
  });
  const asked = await mcp.call('context_query', {
    session_id: sessionId,
    prompt: 'Which build failed?',
    variables: ['found'],
  });
  expect(asked).toMatchObject({ response: MODEL_ANSWERS.query, variables_used: ['found'] });
  const reasoned = await mcp.call('context_rlm', {
    session_id: sessionId,
    goal: 'Name one memory about the build',
    memory_query: 'ARM build',
  });
  expect(reasoned).toMatchObject({ goal_achieved: true, iterations: 1 });
  const status = await mcp.call('context_status', { session_id: sessionId });
  expect(status.exists).toBe(true);
  expect(status.variables).toEqual(expect.arrayContaining(['answer', 'found']));

  // end the session: its working memory goes
  expect(await mcp.call('session_end', { session_id: sessionId })).toEqual({ session_id: sessionId, ended: true });
  expect((await mcp.fail('working_memory_get', { session_id: sessionId })).code).toMatch(/^(not_found|gone)$/);

  // a chat thread
  const thread = (await mcp.call('thread_create', { ...ws, title: 'Standup', user_id: 'user-1' })).thread;
  expect(thread).toMatchObject({ workspace_id: workspace, title: 'Standup' });
  const appended = await mcp.call('thread_append', {
    thread_id: thread.id,
    messages: [
      { role: 'user', content: 'I prefer tea over coffee in the mornings.' },
      { role: 'assistant', content: 'Noted.' },
    ],
  });
  // The thread routes' shapes: REST names beside the record's own.
  expect(thread.thread_id).toBe(thread.id);
  expect(appended).toMatchObject({ thread_id: thread.id, new_message_count: 2 });
  expect(appended.messages.map((m: Json) => m.index)).toEqual([0, 1]);
  const read = await mcp.call('thread_get', { thread_id: thread.id });
  expect(read.thread.thread_id).toBe(thread.id);
  expect(read.messages.map((m: Json) => [m.index, m.message_id === m.id, m.content])).toEqual([
    [0, true, 'I prefer tea over coffee in the mornings.'],
    [1, true, 'Noted.'],
  ]);
  expect(read.total_messages).toBe(2);
  expect(await mcp.call('thread_decompose', { thread_id: thread.id })).toMatchObject({
    thread_id: thread.id,
    messages_processed: 2,
    from_index: 0,
    to_index: 1,
  });

  // a contradiction, found by the write pipeline's background check, and resolved
  const before = (await mcp.call('remember', { ...ws, content: 'The API server listens on port 8080.' })).memory;
  const after = (await mcp.call('remember', { ...ws, content: 'The API server listens on port 9090.' })).memory;
  const contradiction = await eventually(async () => {
    await options.settle?.();
    const listed = await mcp.call('contradictions_list', ws);
    return listed.count > 0 ? (listed.contradictions[0] as Json) : undefined;
  });
  expect(contradiction).toMatchObject({ memory_a_id: before.id, memory_b_id: after.id });
  const resolved = await mcp.call('contradiction_resolve', {
    contradiction_id: contradiction.id,
    resolution: 'keep_b',
  });
  expect(resolved).toMatchObject({ id: contradiction.id, resolution: 'keep_b' });
  expect((await mcp.call('contradictions_list', ws)).count).toBe(0);

  // export: a header, the memories (the one keep_b forgot is not active), a footer
  const lines = ((await mcp.call('export_workspace', ws)) as string)
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Json);
  expect(lines[0]).toMatchObject({ type: 'header', workspace_id: workspace });
  expect(lines.at(-1)!.type).toBe('footer');
  const exported = lines.filter((line) => line.type === 'memory').map((line) => line.data.id);
  expect(exported).toEqual(expect.arrayContaining([problem.id, fix.id, throughSession.id, after.id]));

  // forget: soft (no longer recalled), then hard
  expect(await mcp.call('forget', { ...ws, memory_id: problem.id })).toEqual({
    memory_id: problem.id,
    deleted: 'soft',
  });
  const afterForget = await mcp.call('recall', { ...ws, query: 'ARM build', tags: ['ci'] });
  expect(afterForget.memories.map((m: Json) => m.id)).toEqual([fix.id]);
  expect(await mcp.call('forget', { ...ws, memory_id: fix.id, hard: true })).toEqual({
    memory_id: fix.id,
    deleted: 'hard',
  });
  expect((await mcp.fail('update_memory', { ...ws, memory_id: fix.id, importance: 0.9 })).code).toBe('not_found');
}

import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { GetPromptResult } from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod';
import { SESSION_BRIEFING_LOOKBACK_HOURS } from '../core/sessions/briefing.js';
import type { CoreServices } from '../services.js';
import { toolContext, type McpCaller } from './caller.js';
import { protocolError } from './errors.js';
import { INSTRUCTIONS, PRACTICES } from './guidance.js';

/** `use_memory`: primes an agent to use memory well, with what happened lately in its workspace (a session's briefing). */
export function registerPrompts(server: McpServer, services: CoreServices, caller: McpCaller): void {
  server.registerPrompt(
    'use_memory',
    {
      title: 'Use long-term memory',
      description:
        'How to use memd’s tools well, and what happened lately in the workspace; optionally the task at hand',
      argsSchema: {
        task: z.string().max(10_000).optional().describe('what you are about to work on'),
        workspace_id: z.string().max(128).optional().describe('the workspace (default: the connection’s)'),
      },
    },
    async ({ task, workspace_id }): Promise<GetPromptResult> => {
      let summary: string;
      const context = toolContext(services, caller);
      try {
        const access = await context.scope(workspace_id);
        summary = (await services.sessions.briefing(access, { lookbackMinutes: SESSION_BRIEFING_LOOKBACK_HOURS * 60 }))
          .summary;
      } catch (error) {
        await context.abandon();
        throw protocolError(error);
      }
      const text = [
        INSTRUCTIONS,
        PRACTICES,
        `What happened lately in this workspace: ${summary}`,
        task
          ? `The task at hand: ${task}\nStart by recalling what is already known about it.`
          : 'Start by recalling what is already known about the task you are given.',
      ].join('\n\n');
      return { description: 'Using long-term memory', messages: [{ role: 'user', content: { type: 'text', text } }] };
    },
  );
}

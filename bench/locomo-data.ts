import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/**
 * The LoCoMo development conversations (../shared/bench/locomo-dev; its README gives the format), as bench:locomo
 * and bench:pages read them. LOCOMO_DIR names another folder.
 */
export interface Turn {
  dia_id: string;
  session: number;
  session_date: string;
  speaker: string;
  text: string;
}
export interface Question {
  question: string;
  evidence: string[];
  category: number;
}
export interface Conversation {
  conversation_id: string;
  sessions: Array<{ session: number; date: string }>;
  turns: Turn[];
  qa: Question[];
}

const FILES = ['conv-26.json', 'conv-30.json', 'conv-41.json'];

/** The three conversations. The shared folder sits next to the main checkout, or two levels up from a worktree. */
export function loadConversations(): Conversation[] {
  const dir = resolve(
    process.env.LOCOMO_DIR ??
      ['../shared/bench/locomo-dev', '../../shared/bench/locomo-dev'].find((d) => existsSync(d)) ??
      '../shared/bench/locomo-dev',
  );
  return FILES.map((file) => JSON.parse(readFileSync(join(dir, file), 'utf8')) as Conversation);
}

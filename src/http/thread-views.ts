import type { ChatMessage, ChatThread } from '../core/threads/service.js';

/**
 * A chat thread and its messages as the thread routes and the MCP thread tools answer them: the REST names
 * (`thread_id`, `message_id`, `index`) beside the record's own, which client libraries read.
 */
export const threadView = (thread: ChatThread) => ({ thread_id: thread.id, ...thread });

export const messageView = (m: ChatMessage) => ({
  message_id: m.id,
  id: m.id,
  thread_id: m.thread_id,
  index: m.message_index,
  message_index: m.message_index,
  role: m.role,
  content: m.content,
  metadata: m.metadata,
  created_at: m.created_at,
});

/** What appending answers: the new messages, and how many the thread holds now. */
export const appendedView = (threadId: string, appended: { messages: ChatMessage[]; messageCount: number }) => ({
  messages: appended.messages.map(messageView),
  thread_id: threadId,
  new_message_count: appended.messageCount,
});

import { methodsOver } from '../operations.js';
import type { Transport } from '../transport.js';

/**
 * Sessions and their working memory. A session's calls (context, writes that belong to it) go through
 * `client.withSession(id)`, which sends `X-Session-ID`.
 */
export function sessionsApi(transport: Transport) {
  const op = methodsOver(transport);
  return {
    /** `{session, briefing}`; the briefing only with `{briefing: true}`. */
    start: op('post', '/v1/sessions'),
    list: op('get', '/v1/sessions'),
    /** What happened in the workspace lately. */
    briefing: op('get', '/v1/sessions/briefing'),
    get: op('get', '/v1/sessions/{session_id}'),
    /** End the session: its working memory goes, committed memories stay. */
    end: op('delete', '/v1/sessions/{session_id}'),
    /** Store the working-memory entries above the thresholds as long-term memories. */
    commit: op('post', '/v1/sessions/{session_id}/commit'),
    /** Extend the session's life (`{ttl_seconds}`, or its own TTL). */
    touch: op('post', '/v1/sessions/{session_id}/touch'),
    workingMemory: {
      /** `(sessionId, {key, value, ttl_seconds?})`. */
      set: op('post', '/v1/sessions/{session_id}/memory'),
      /** Every live entry as `{key: value}`, or the one `{key}`. */
      get: op('get', '/v1/sessions/{session_id}/memory'),
    },
  };
}

/** The Python sandbox of a session: every call needs `client.withSession(id)`. */
export function contextApi(transport: Transport) {
  const op = methodsOver(transport);
  return {
    /** Run Python; variables persist between calls. A Python exception is an answer with `error`, not a failure. */
    execute: op('post', '/v1/context/execute'),
    /** One variable (`{variable}`), or an overview of all. */
    inspect: op('post', '/v1/context/inspect', { idempotent: true }),
    /** Recall from the session's workspace into a variable. */
    load: op('post', '/v1/context/load'),
    /** Set a variable to a JSON value. */
    inject: op('post', '/v1/context/inject'),
    /** Ask the language model about variables. */
    query: op('post', '/v1/context/query'),
    /** Recursive reasoning: the model writes code, the sandbox runs it, until the goal is reached. */
    rlm: op('post', '/v1/context/rlm'),
    status: op('get', '/v1/context/status'),
    /** Save the variables that can be saved (restored after a restart or on another node). */
    checkpoint: op('post', '/v1/context/checkpoint'),
    /** Remove the sandbox and its checkpoint. */
    cleanup: op('delete', '/v1/context/cleanup'),
  };
}

/** Chat threads: messages in order, decomposed into memories on request. */
export function threadsApi(transport: Transport) {
  const op = methodsOver(transport);
  return {
    create: op('post', '/v1/threads'),
    /** Live threads, most recently active first. */
    list: op('get', '/v1/threads'),
    get: op('get', '/v1/threads/{thread_id}'),
    update: op('put', '/v1/threads/{thread_id}'),
    /** The thread and its messages (memories decomposed from it stay). */
    delete: op('delete', '/v1/threads/{thread_id}'),
    /** The thread with a page of its messages. */
    full: op('get', '/v1/threads/{thread_id}/full'),
    /** `(threadId, {messages})`: they get the next indexes, in order. */
    append: op('post', '/v1/threads/{thread_id}/messages'),
    messages: op('get', '/v1/threads/{thread_id}/messages'),
    /** `(threadId, messageId)`. */
    deleteMessage: op('delete', '/v1/threads/{thread_id}/messages/{message_id}'),
    /** Extract memories from the messages not processed yet. */
    decompose: op('post', '/v1/threads/{thread_id}/decompose'),
  };
}

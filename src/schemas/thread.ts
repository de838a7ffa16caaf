import { Type, type Static } from 'typebox';
import { JsonObject, Nullable, StringEnum, Timestamp } from './primitives.js';

export const CHAT_ROLES = ['user', 'assistant', 'system', 'tool'] as const;
export type ChatRole = (typeof CHAT_ROLES)[number];

export const ContentBlockSchema = Type.Object(
  {
    type: Type.String({ minLength: 1, maxLength: 64 }),
    text: Type.Optional(Type.String({ maxLength: 200_000 })),
    data: Type.Optional(JsonObject),
  },
  { additionalProperties: false },
);
export type ContentBlock = Static<typeof ContentBlockSchema>;

/** A message's content: plain text, or content blocks (text, images, tool calls, …). */
export const MessageContentSchema = Type.Union([
  Type.String({ minLength: 1, maxLength: 200_000 }),
  Type.Array(ContentBlockSchema, { minItems: 1, maxItems: 100 }),
]);
export type MessageContent = Static<typeof MessageContentSchema>;

/**
 * A chat thread as stored, declared once; the API's thread adds the name `thread_id` beside `id`
 * (src/http/schemas/thread.ts).
 */
export const ThreadRecord = Type.Object({
  id: Type.String(),
  workspace_id: Type.String(),
  tenant_id: Type.String(),
  user_id: Nullable(Type.String()),
  context_id: Type.String(),
  observer_id: Nullable(Type.String({ description: 'who observes (typically the AI agent)' })),
  subject_id: Nullable(Type.String({ description: 'who the thread is about (typically the human user)' })),
  title: Nullable(Type.String()),
  metadata: JsonObject,
  message_count: Type.Integer(),
  last_decomposed_at: Nullable(Timestamp),
  last_decomposed_index: Type.Integer({ description: 'index of the last message decomposed; -1 before the first run' }),
  expires_at: Nullable(Type.String({ format: 'date-time', description: 'null: permanent' })),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type ChatThread = Static<typeof ThreadRecord>;

/** A message of a thread as stored, declared once; the API adds `message_id` and `index` beside `id` and `message_index`. */
export const MessageRecord = Type.Object({
  id: Type.String(),
  workspace_id: Type.String(),
  thread_id: Type.String(),
  message_index: Type.Integer({ description: 'zero-based, strictly increasing within the thread, never reused' }),
  role: StringEnum(CHAT_ROLES),
  content: MessageContentSchema,
  metadata: JsonObject,
  created_at: Timestamp,
});
export type ChatMessage = Static<typeof MessageRecord>;

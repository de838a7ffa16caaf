import { Type } from 'typebox';
import { CHAT_ROLES, MessageContentSchema, MessageRecord, ThreadRecord } from '../../schemas/thread.js';
import { Identifier, JsonObject, MAX_POSITION, Nullable, paging, StringEnum, WorkspaceIdField } from './common.js';

const Order = StringEnum(['asc', 'desc'] as const, { default: 'asc' });
const Attribution = (description: string) => Type.Optional(Type.String({ minLength: 1, maxLength: 256, description }));

/** A thread as stored (src/schemas/thread.ts), with `thread_id` beside `id`. */
export const Thread = Type.Object(
  {
    thread_id: Type.String(),
    ...ThreadRecord.properties,
    id: Type.String({ description: 'the same as thread_id (the name client libraries read)' }),
  },
  { title: 'Thread' },
);

const { workspace_id: _workspace, ...messageFields } = MessageRecord.properties;

/** A message as stored (src/schemas/thread.ts) without its workspace, with `message_id` and `index` beside `id` and `message_index`. */
export const Message = Type.Object(
  {
    message_id: Type.String(),
    ...messageFields,
    id: Type.String({ description: 'the same as message_id' }),
    index: Type.Integer({ description: 'zero-based, strictly increasing within the thread' }),
    message_index: Type.Integer({ description: 'the same as index' }),
  },
  { title: 'Message' },
);

export const ThreadParams = Type.Object({ thread_id: Type.String({ minLength: 1, maxLength: 256 }) });
export const MessageParams = Type.Object({
  thread_id: Type.String({ minLength: 1, maxLength: 256 }),
  message_id: Type.String({ minLength: 1, maxLength: 256 }),
});
export const ThreadWorkspaceQuery = Type.Object({ workspace_id: WorkspaceIdField }, { additionalProperties: false });

export const CreateThreadBody = Type.Object(
  {
    thread_id: Type.Optional(Identifier('choose the id instead of a generated thread_…')),
    workspace_id: WorkspaceIdField,
    user_id: Attribution('the user the conversation belongs to'),
    context_id: Type.Optional(Identifier('created if absent; default `_default`')),
    observer_id: Attribution('who observes (typically the AI agent); memories decomposed from the thread carry it'),
    subject_id: Attribution('who the thread is about (typically the human user); memories decomposed from it carry it'),
    title: Type.Optional(Type.String({ maxLength: 512 })),
    metadata: Type.Optional(JsonObject),
    expires_at: Type.Optional(Nullable(Type.String({ format: 'date-time', description: 'null: permanent' }))),
  },
  { additionalProperties: false },
);

export const UpdateThreadBody = Type.Object(
  { title: Type.Optional(Nullable(Type.String({ maxLength: 512 }))), metadata: Type.Optional(JsonObject) },
  { additionalProperties: false },
);

export const ListThreadsQuery = Type.Object(
  {
    workspace_id: WorkspaceIdField,
    user_id: Type.Optional(Type.String({ minLength: 1, maxLength: 256 })),
    ...paging(200, 50),
  },
  { additionalProperties: false },
);

const messagePaging = {
  workspace_id: WorkspaceIdField,
  ...paging(1_000, 100),
  order: Order,
};

export const FullThreadQuery = Type.Object(messagePaging, { additionalProperties: false });
export const ListMessagesQuery = Type.Object(
  {
    ...messagePaging,
    after_index: Type.Optional(
      Type.Integer({ minimum: -1, maximum: MAX_POSITION, description: 'only messages with a greater index' }),
    ),
  },
  { additionalProperties: false },
);

export const AppendMessagesBody = Type.Object(
  {
    messages: Type.Array(
      Type.Object(
        { role: StringEnum(CHAT_ROLES), content: MessageContentSchema, metadata: Type.Optional(JsonObject) },
        { additionalProperties: false },
      ),
      { minItems: 1, maxItems: 1_000 },
    ),
  },
  { additionalProperties: false },
);

export const AppendMessagesResponse = Type.Object({
  messages: Type.Array(Message),
  thread_id: Type.String(),
  new_message_count: Type.Integer({ description: 'messages in the thread now' }),
});

export const DecomposeResponse = Type.Object({
  thread_id: Type.String(),
  workspace_id: Type.String(),
  messages_processed: Type.Integer(),
  memories_created: Type.Integer(),
  from_index: Nullable(Type.Integer()),
  to_index: Nullable(Type.Integer()),
});

import { useState } from 'preact/hooks';
import { useApi } from '../api';
import { Badge, Facts } from '../components/Badges';
import { ErrorNote, Loading } from '../components/Feedback';
import { workspacePath } from '../components/Layout';
import { ago, count, json } from '../format';
import { useAction, useLoad } from '../hooks';
import { messageIdOf, threadIdOf, type Decomposition, type Message, type Thread } from '../types';

const THREADS_PAGE = 50;
const MESSAGES_PAGE = 200;
const ROLES = ['user', 'assistant', 'system', 'tool'] as const;

/** Chat threads: their messages, how far decomposition has read them; decompose from here. */
export function Threads({ ws }: { ws: string }) {
  const { memd } = useApi();
  const [offset, setOffset] = useState(0);
  const [selected, setSelected] = useState<string | undefined>();
  const threads = useLoad(
    (signal) => memd.threads.list({ workspace_id: ws, limit: THREADS_PAGE, offset }, { signal }),
    [ws, offset],
  );
  const list = threads.data?.threads ?? [];
  const current = selected ?? (list[0] && threadIdOf(list[0]));

  return (
    <div class="split">
      <div class="pane stack">
        <NewThread
          ws={ws}
          onCreated={(id) => {
            threads.reload();
            setSelected(id);
          }}
        />
        <ErrorNote error={threads.error} />
        <Loading when={threads.loading && !threads.data} />
        {threads.data?.total_count === 0 && <p class="muted">No chat thread in this workspace.</p>}
        <ul class="plain list" aria-label="Threads">
          {list.map((t: Thread) => (
            <li key={threadIdOf(t)}>
              <button
                type="button"
                class="listitem"
                aria-pressed={threadIdOf(t) === current}
                onClick={() => setSelected(threadIdOf(t))}
              >
                <span>{t.title ?? <span class="mono small">{threadIdOf(t)}</span>}</span>
                <span class="muted small">
                  {count(t.message_count)} messages · {t.message_count - (t.last_decomposed_index + 1)} not decomposed ·{' '}
                  {ago(t.updated_at)}
                </span>
              </button>
            </li>
          ))}
        </ul>
        {threads.data && threads.data.total_count > THREADS_PAGE && (
          <div class="row">
            <button type="button" disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - THREADS_PAGE))}>
              Newer
            </button>
            <span class="muted small">
              {offset + 1}–{Math.min(offset + THREADS_PAGE, threads.data.total_count)} of{' '}
              {count(threads.data.total_count)}
            </span>
            <button
              type="button"
              disabled={offset + THREADS_PAGE >= threads.data.total_count}
              onClick={() => setOffset(offset + THREADS_PAGE)}
            >
              Older
            </button>
          </div>
        )}
      </div>
      {current && <ThreadPanel key={current} ws={ws} id={current} onChanged={threads.reload} />}
    </div>
  );
}

function NewThread({ ws, onCreated }: { ws: string; onCreated(id: string): void }) {
  const { memd } = useApi();
  const action = useAction();
  const [title, setTitle] = useState('');
  return (
    <form
      class="row wrap"
      aria-label="Start a thread"
      onSubmit={async (event) => {
        event.preventDefault();
        const created = await action.run(() =>
          memd.threads.create({ workspace_id: ws, ...(title.trim() && { title: title.trim() }) }),
        );
        if (created) {
          setTitle('');
          onCreated(threadIdOf(created.value.thread));
        }
      }}
    >
      <label>
        Title
        <input value={title} onInput={(e) => setTitle(e.currentTarget.value)} placeholder="optional" />
      </label>
      <button type="submit" disabled={action.busy}>
        Start a thread
      </button>
      <ErrorNote error={action.error} />
    </form>
  );
}

const textOf = (message: Message): string =>
  typeof message.content === 'string'
    ? message.content
    : message.content.map((block) => block.text ?? json(block.data ?? block.type)).join('\n');

function ThreadPanel({ ws, id, onChanged }: { ws: string; id: string; onChanged(): void }) {
  const api = useApi();
  const memd = api.in(ws);
  const [pages, setPages] = useState(1);
  const loaded = useLoad(
    (signal) => memd.threads.full(id, { limit: Math.min(1000, MESSAGES_PAGE * pages), order: 'asc' }, { signal }),
    [id, pages],
  );
  const action = useAction();
  const [decomposed, setDecomposed] = useState<Decomposition | undefined>();
  const [role, setRole] = useState<(typeof ROLES)[number]>('user');
  const [content, setContent] = useState('');
  const thread = loaded.data?.thread;
  const messages = loaded.data?.messages ?? [];
  const reload = () => {
    loaded.reload();
    onChanged();
  };

  return (
    <aside class="pane panel stack" aria-label={`Thread ${id}`}>
      <h2>{thread?.title ?? id}</h2>
      <ErrorNote error={loaded.error} />
      {thread && (
        <>
          <Facts
            items={[
              ['messages', count(thread.message_count)],
              [
                'decomposed up to',
                thread.last_decomposed_index < 0 ? 'not yet' : `message ${thread.last_decomposed_index}`,
              ],
              ['last decomposed', ago(thread.last_decomposed_at)],
              ['waiting', count(thread.message_count - (thread.last_decomposed_index + 1))],
              ['observer / subject', `${thread.observer_id ?? '—'} / ${thread.subject_id ?? '—'}`],
              ['expires', thread.expires_at ? ago(thread.expires_at) : 'never'],
            ]}
          />
          <div class="row wrap">
            <button
              type="button"
              class="primary"
              disabled={action.busy}
              onClick={async () => {
                const done = await action.run(() => memd.threads.decompose(id));
                if (done) {
                  setDecomposed(done.value);
                  reload();
                }
              }}
            >
              Decompose now
            </button>
            <a class="button" href={`${workspacePath(ws, 'recall')}?q=${encodeURIComponent(thread.title ?? '')}`}>
              Recall about it
            </a>
          </div>
          {decomposed && (
            <p role="status">
              Read {decomposed.messages_processed} messages
              {decomposed.from_index !== null && ` (${decomposed.from_index}–${decomposed.to_index})`}, created{' '}
              {decomposed.memories_created} memories.
            </p>
          )}
          <ol class="messages" aria-label="Messages">
            {messages.map((m) => (
              <li key={messageIdOf(m)} class={`message role-${m.role}`}>
                <div class="row spread small">
                  <span>
                    <Badge kind={m.role}>{m.role}</Badge> <span class="muted">#{m.index}</span>
                  </span>
                  {m.index <= thread.last_decomposed_index ? (
                    <Badge kind="active">decomposed</Badge>
                  ) : (
                    <Badge kind="archived">waiting</Badge>
                  )}
                </div>
                <p>{textOf(m)}</p>
              </li>
            ))}
          </ol>
          {loaded.data && loaded.data.total_messages > messages.length && (
            <button type="button" onClick={() => setPages(pages + 1)} disabled={loaded.loading}>
              Show more messages ({count(loaded.data.total_messages - messages.length)} more)
            </button>
          )}
          <form
            class="row wrap"
            aria-label="Add a message"
            onSubmit={async (event) => {
              event.preventDefault();
              if (await action.run(() => memd.threads.append(id, { messages: [{ role, content }] }))) {
                setContent('');
                reload();
              }
            }}
          >
            <label>
              Role
              <select value={role} onChange={(e) => setRole(e.currentTarget.value as (typeof ROLES)[number])}>
                {ROLES.map((r) => (
                  <option key={r}>{r}</option>
                ))}
              </select>
            </label>
            <label class="grow">
              Message
              <input value={content} onInput={(e) => setContent(e.currentTarget.value)} required />
            </label>
            <button type="submit" disabled={action.busy}>
              Add
            </button>
          </form>
          <ErrorNote error={action.error} />
        </>
      )}
    </aside>
  );
}

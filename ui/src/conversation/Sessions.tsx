import { useState } from 'preact/hooks';
import { useApi } from '../api';
import { Badge, Facts } from '../components/Badges';
import { ErrorNote, Loading } from '../components/Feedback';
import { workspacePath } from '../components/Layout';
import { ago, countdown, json } from '../format';
import { useAction, useLoad, useNow } from '../hooks';
import type { SessionSummary } from '../types';

/** Sessions: which are alive and for how long (a live countdown), their working memory; start, touch, commit, end. */
export function Sessions({ ws }: { ws: string }) {
  const { memd } = useApi();
  const [includeExpired, setIncludeExpired] = useState(false);
  const [selected, setSelected] = useState<string | undefined>();
  const sessions = useLoad(
    async (signal) =>
      (await memd.sessions.list({ workspace_id: ws, include_expired: includeExpired }, { signal })).sessions,
    [ws, includeExpired],
  );
  const now = useNow();
  const current = selected ?? sessions.data?.[0]?.id;

  return (
    <div class="split">
      <div class="pane stack">
        <StartSession
          ws={ws}
          onStarted={(id) => {
            sessions.reload();
            setSelected(id);
          }}
        />
        <label class="check">
          <input
            type="checkbox"
            checked={includeExpired}
            onChange={(e) => setIncludeExpired(e.currentTarget.checked)}
          />
          include expired sessions
        </label>
        <ErrorNote error={sessions.error} />
        <Loading when={sessions.loading && !sessions.data} />
        {sessions.data?.length === 0 && <p class="muted">No live session in this workspace.</p>}
        <ul class="plain list" aria-label="Sessions">
          {sessions.data?.map((s: SessionSummary) => (
            <li key={s.id}>
              <button type="button" class="listitem" aria-pressed={s.id === current} onClick={() => setSelected(s.id)}>
                <span class="mono small">{s.id}</span>
                <span class="muted small">
                  {s.user_id ?? 'no user'} · {s.context_id} · {countdown((Date.parse(s.expires_at) - now) / 1000)}
                </span>
              </button>
            </li>
          ))}
        </ul>
      </div>
      {current && (
        <SessionPanel
          key={current}
          ws={ws}
          id={current}
          onGone={() => {
            setSelected(undefined);
            sessions.reload();
          }}
        />
      )}
    </div>
  );
}

function StartSession({ ws, onStarted }: { ws: string; onStarted(id: string): void }) {
  const { memd } = useApi();
  const action = useAction();
  const [user, setUser] = useState('');
  const [ttl, setTtl] = useState('3600');
  return (
    <form
      class="row wrap"
      aria-label="Start a session"
      onSubmit={async (event) => {
        event.preventDefault();
        const started = await action.run(() =>
          memd.sessions.start({
            workspace_id: ws,
            ttl_seconds: Number(ttl),
            ...(user.trim() && { user_id: user.trim() }),
          }),
        );
        if (started) onStarted(started.value.session.id);
      }}
    >
      <label>
        User
        <input value={user} onInput={(e) => setUser(e.currentTarget.value)} placeholder="optional" />
      </label>
      <label>
        TTL (s)
        <input
          type="number"
          class="narrow"
          min={60}
          max={86400}
          value={ttl}
          onInput={(e) => setTtl(e.currentTarget.value)}
        />
      </label>
      <button type="submit" disabled={action.busy}>
        Start a session
      </button>
      <ErrorNote error={action.error} />
    </form>
  );
}

function SessionPanel({ ws, id, onGone }: { ws: string; id: string; onGone(): void }) {
  const { memd } = useApi();
  const loaded = useLoad(async (signal) => (await memd.sessions.get(id, {}, { signal })).session, [id]);
  const action = useAction();
  const now = useNow();
  const [key, setKey] = useState('');
  const [value, setValue] = useState('');
  const [entryTtl, setEntryTtl] = useState('');
  const [committed, setCommitted] = useState<string | undefined>();
  const session = loaded.data;
  const left = session ? (Date.parse(session.expires_at) - now) / 1000 : 0;

  return (
    <aside class="pane panel stack" aria-label={`Session ${id}`}>
      <h2 class="mono">{id}</h2>
      <ErrorNote error={loaded.error} />
      {session && (
        <>
          <p class="ttl" role="timer" aria-label="time to live">
            <Badge kind={left > 0 ? 'active' : 'deleted'}>{left > 0 ? 'alive' : 'expired'}</Badge> expires in{' '}
            <strong>{countdown(left)}</strong> <span class="muted small">(TTL {session.ttl_seconds} s, sliding)</span>
          </p>
          <Facts
            items={[
              ['user', session.user_id ?? '—'],
              ['context', session.context_id],
              ['started', ago(session.created_at, now)],
              ['metadata', json(session.metadata)],
            ]}
          />
          <div class="row wrap" role="toolbar" aria-label="Session actions">
            <button
              type="button"
              disabled={action.busy}
              onClick={async () => (await action.run(() => memd.sessions.touch(id, {}))) && loaded.reload()}
            >
              Touch (extend)
            </button>
            <button
              type="button"
              disabled={action.busy}
              onClick={async () => {
                const done = await action.run(() => memd.sessions.commit(id, {}));
                if (done)
                  setCommitted(
                    `${done.value.memories_created} memories created from ${done.value.memories_extracted} entries (${done.value.memories_deduplicated} duplicates).`,
                  );
              }}
            >
              Commit working memory
            </button>
            <a class="button" href={`${workspacePath(ws, 'memories')}?session_id=${encodeURIComponent(id)}`}>
              Its memories
            </a>
            <button
              type="button"
              class="danger"
              disabled={action.busy}
              onClick={async () => (await action.run(() => memd.sessions.end(id))) && onGone()}
            >
              End session
            </button>
          </div>
          {committed && <p role="status">{committed}</p>}
          <h3>Working memory</h3>
          {Object.keys(session.working_memory).length === 0 ? (
            <p class="muted">Empty.</p>
          ) : (
            <table class="table compact">
              <tbody>
                {Object.entries(session.working_memory).map(([k, v]) => (
                  <tr key={k}>
                    <th scope="row" class="mono">
                      {k}
                    </th>
                    <td>
                      <pre class="value">{json(v)}</pre>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          <form
            class="row wrap"
            aria-label="Set a working-memory entry"
            onSubmit={async (event) => {
              event.preventDefault();
              let parsed: unknown = value;
              try {
                parsed = JSON.parse(value);
              } catch {
                // Not JSON: kept as text.
              }
              const body = {
                key: key.trim(),
                value: parsed,
                ...(entryTtl.trim() && { ttl_seconds: Number(entryTtl) }),
              };
              if (await action.run(() => memd.sessions.workingMemory.set(id, body))) {
                setKey('');
                setValue('');
                loaded.reload();
              }
            }}
          >
            <label>
              Key
              <input value={key} onInput={(e) => setKey(e.currentTarget.value)} required />
            </label>
            <label>
              Value (JSON or text)
              <input value={value} onInput={(e) => setValue(e.currentTarget.value)} required />
            </label>
            <label>
              TTL (s)
              <input
                type="number"
                class="narrow"
                min={1}
                value={entryTtl}
                onInput={(e) => setEntryTtl(e.currentTarget.value)}
                placeholder="none"
              />
            </label>
            <button type="submit" disabled={action.busy}>
              Set
            </button>
          </form>
          <ErrorNote error={action.error} />
        </>
      )}
    </aside>
  );
}

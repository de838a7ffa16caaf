import { useState } from 'preact/hooks';
import { useApi } from '../api';
import { Badge } from '../components/Badges';
import { ErrorNote, Loading } from '../components/Feedback';
import { workspacePath } from '../components/Layout';
import { ago, count } from '../format';
import { useAction, useLoad } from '../hooks';
import type { Contradiction, Memory, Resolution } from '../types';

/** Open contradictions at most read at once (the API's bound). */
const SHOWN = 100;

/** Open contradictions, the two memories side by side, and the four ways to resolve one. */
export function Contradictions({ ws }: { ws: string }) {
  const api = useApi();
  const memd = api.in(ws);
  const scanning = useAction();
  const [scanned, setScanned] = useState<number | undefined>();
  const open = useLoad(
    async (signal) => {
      const { contradictions } = await memd.contradictions.list(ws, { limit: SHOWN }, { signal });
      const ids = [...new Set(contradictions.flatMap((c) => [c.memory_a_id, c.memory_b_id]))];
      // A memory deleted since is shown as gone, not as a failure of the page.
      const memories = await Promise.all(
        ids.map((id) =>
          memd.memories.get(id, undefined, { signal }).then(
            (r) => r.memory,
            () => undefined,
          ),
        ),
      );
      return {
        contradictions,
        memories: new Map(memories.filter((m): m is Memory => m !== undefined).map((m) => [m.id, m])),
      };
    },
    [ws],
  );

  return (
    <div class="stack">
      <div class="row wrap">
        <button
          type="button"
          disabled={scanning.busy}
          onClick={async () => {
            const done = await scanning.run(() => memd.contradictions.scan(ws, {}));
            if (done) {
              setScanned(done.value.contradictions_found);
              open.reload();
            }
          }}
        >
          Scan the workspace
        </button>
        {scanned !== undefined && <span role="status">{count(scanned)} new contradictions found.</span>}
        <ErrorNote error={scanning.error} />
      </div>
      <ErrorNote error={open.error} />
      <Loading when={open.loading && !open.data} />
      {open.data?.contradictions.length === 0 && <p class="muted">No open contradiction.</p>}
      {open.data?.contradictions.map((c) => (
        <ContradictionCard
          key={c.id}
          ws={ws}
          contradiction={c}
          a={open.data!.memories.get(c.memory_a_id)}
          b={open.data!.memories.get(c.memory_b_id)}
          onResolved={open.reload}
        />
      ))}
    </div>
  );
}

const RESOLUTIONS: Array<[Resolution, string, string]> = [
  ['keep_a', 'Keep A', 'B is deleted (soft)'],
  ['keep_b', 'Keep B', 'A is deleted (soft)'],
  ['keep_both', 'Keep both', 'both stay; the contradiction is closed'],
  ['merge', 'Merge…', 'one new memory replaces both'],
];

function ContradictionCard({
  ws,
  contradiction: c,
  a,
  b,
  onResolved,
}: {
  ws: string;
  contradiction: Contradiction;
  a?: Memory;
  b?: Memory;
  onResolved(): void;
}) {
  const api = useApi();
  const action = useAction();
  const [merging, setMerging] = useState(false);
  const [merged, setMerged] = useState(() => [a?.content, b?.content].filter(Boolean).join('\n'));
  const resolve = async (resolution: Resolution, mergedContent?: string) => {
    const body = { resolution, ...(mergedContent !== undefined && { merged_content: mergedContent }) };
    if (await action.run(() => api.in(ws).contradictions.resolve(c.id, body))) onResolved();
  };
  const side = (label: string, memory: Memory | undefined, id: string) => (
    <article class="side">
      <h3>
        {label} <span class="muted small">{memory ? ago(memory.created_at) : ''}</span>
      </h3>
      {memory ? (
        <a href={`${workspacePath(ws, 'memories')}/${id}`}>{memory.content}</a>
      ) : (
        <p class="muted">{id} is gone.</p>
      )}
    </article>
  );
  return (
    <section class="card contradiction" aria-label={`Contradiction ${c.id}`}>
      <p class="row wrap small">
        <Badge kind="contradiction">{c.contradiction_type}</Badge>
        <span>confidence {c.confidence.toFixed(2)}</span>
        <span class="muted">
          by {c.detection_method} · {ago(c.detected_at)}
        </span>
      </p>
      {c.explanation && <p class="small">{c.explanation}</p>}
      <div class="sides">
        {side('A (earlier)', a, c.memory_a_id)}
        {side('B (later)', b, c.memory_b_id)}
      </div>
      {/* biome-ignore lint/a11y/useSemanticElements: a <fieldset> would bring a border and a legend to a row of buttons. */}
      <div class="row wrap" role="group" aria-label="Resolve">
        {RESOLUTIONS.map(([resolution, label, effect]) => (
          <button
            key={resolution}
            type="button"
            title={effect}
            disabled={action.busy}
            onClick={() => (resolution === 'merge' ? setMerging(true) : resolve(resolution))}
          >
            {label}
          </button>
        ))}
      </div>
      {merging && (
        <form
          class="stack"
          onSubmit={(event) => {
            event.preventDefault();
            void resolve('merge', merged);
          }}
        >
          <label>
            Merged memory
            <textarea rows={3} value={merged} onInput={(e) => setMerged(e.currentTarget.value)} required />
          </label>
          <div class="row">
            <button type="submit" class="primary" disabled={action.busy}>
              Merge into one
            </button>
            <button type="button" onClick={() => setMerging(false)}>
              Cancel
            </button>
          </div>
        </form>
      )}
      <ErrorNote error={action.error} />
    </section>
  );
}

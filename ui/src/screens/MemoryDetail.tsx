import { useLocation, useRoute } from 'preact-iso';
import { useMemo, useState } from 'preact/hooks';
import { useApi } from '../api';
import { Badge, Facts } from '../components/Badges';
import { Confirm } from '../components/Dialog';
import { ErrorNote, Loading } from '../components/Feedback';
import { workspacePath } from '../components/Layout';
import { MemoryGraph } from '../components/MemoryGraph';
import type { ViewEdge, ViewNode } from '../components/graph-view';
import { ago, json, when } from '../format';
import { useAction, useLoad } from '../hooks';
import { ACCENT, TYPE_COLORS } from '../palette';
import type { Memory, MemoryType, Trace } from '../types';
import { EditMemory } from './EditMemory';

/** How many of a memory's atomic facts the page reads. */
const FACTS_SHOWN = 50;

/** One memory: every field, its tiers, where it came from, its associations as a graph, its facts; change it. */
export function MemoryDetail() {
  const { params } = useRoute();
  const ws = params.ws!;
  const id = params.id!;
  const api = useApi();
  const memd = api.in(ws);
  const loaded = useLoad(
    async (signal) => {
      const trace = await memd.memories.trace(id, undefined, { signal });
      const facts = await Promise.all(
        trace.derived_memory_ids
          .slice(0, FACTS_SHOWN)
          .map((factId) => memd.memories.get(factId, undefined, { signal }).then((r) => r.memory)),
      );
      return { memory: trace.memory, trace, facts };
    },
    [ws, id],
  );

  return (
    <section class="detail">
      <p>
        <a href={workspacePath(ws, 'memories')}>← Memories</a>
      </p>
      <ErrorNote error={loaded.error} />
      <Loading when={loaded.loading && !loaded.data} />
      {loaded.data && (
        <Loaded
          ws={ws}
          memory={loaded.data.memory}
          trace={loaded.data.trace}
          facts={loaded.data.facts}
          onChanged={loaded.reload}
        />
      )}
    </section>
  );
}

function Loaded({
  ws,
  memory,
  trace,
  facts,
  onChanged,
}: {
  ws: string;
  memory: Memory;
  trace: Trace;
  facts: Memory[];
  onChanged(): void;
}) {
  const memoryPath = (id: string) => `${workspacePath(ws, 'memories')}/${id}`;
  return (
    <>
      <header class="stack">
        <div class="row wrap">
          <Badge kind={memory.type}>{memory.type}</Badge>
          {memory.subtype && <Badge>{memory.subtype}</Badge>}
          <Badge kind={memory.status}>{memory.status}</Badge>
          {memory.pinned && <Badge kind="pinned">★ pinned</Badge>}
          <span class="muted mono small">{memory.id}</span>
        </div>
        <h1 class="memory-content">{memory.content}</h1>
        <Actions ws={ws} memory={memory} onChanged={onChanged} />
      </header>

      <section aria-labelledby="tiers">
        <h2 id="tiers">Tiers</h2>
        <div class="tiers">
          <article>
            <h3>Abstract</h3>
            <p>{memory.abstract ?? <span class="muted">not generated yet</span>}</p>
          </article>
          <article>
            <h3>Overview</h3>
            <p>{memory.overview ?? <span class="muted">not generated yet</span>}</p>
          </article>
          <article>
            <h3>Full</h3>
            <p>{memory.content}</p>
          </article>
        </div>
      </section>

      <section aria-labelledby="provenance">
        <h2 id="provenance">Provenance</h2>
        <Facts
          items={[
            ['came from', trace.source.kind],
            [
              'source memory',
              trace.source.source_memory_id ? (
                <a href={memoryPath(trace.source.source_memory_id)}>{trace.source.source_memory_id}</a>
              ) : (
                '—'
              ),
            ],
            ['source scope', trace.source.source_scope ?? '—'],
            ['session', trace.source.session_id ?? '—'],
            ['user', trace.source.user_id ?? '—'],
            ['observer', trace.source.observer_id ?? '—'],
            ['thread', trace.source.thread_id ? String(trace.source.thread_id) : '—'],
            ['metadata source', trace.source.metadata_source ? json(trace.source.metadata_source) : '—'],
          ]}
        />
        {trace.source_chain.length > 0 && (
          <>
            <h3>Derived from</h3>
            <ol>
              {trace.source_chain.map((ancestor) => (
                <li key={ancestor.id}>
                  <a href={memoryPath(ancestor.id)}>{ancestor.abstract}</a>{' '}
                  <span class="muted small">via {ancestor.via}</span>
                </li>
              ))}
            </ol>
          </>
        )}
        {trace.categories.length > 0 && (
          <p>
            Link categories:{' '}
            {trace.categories.map((c) => (
              <Badge
                key={c.category}
                title={Object.entries(c.relationships)
                  .map(([r, n]) => `${r}: ${n}`)
                  .join(', ')}
              >
                {c.category} {c.count}
              </Badge>
            ))}
          </p>
        )}
        {trace.articles.length > 0 && (
          <p>Cited by knowledgebase articles: {trace.articles.map((a) => a.title).join(', ')}</p>
        )}
      </section>

      <Associations ws={ws} memory={memory} trace={trace} onChanged={onChanged} />

      <section aria-labelledby="facts">
        <h2 id="facts">Atomic facts ({trace.derived_memory_ids.length})</h2>
        {facts.length === 0 ? (
          <p class="muted">
            No fact derived from this memory (short, single-sentence and working memories are not decomposed).
          </p>
        ) : (
          <ul class="plain">
            {facts.map((fact) => (
              <li key={fact.id}>
                <a href={memoryPath(fact.id)}>{fact.content}</a>
              </li>
            ))}
          </ul>
        )}
      </section>

      <section aria-labelledby="fields">
        <h2 id="fields">Every field</h2>
        <table class="table fields">
          <tbody>
            {Object.entries(memory).map(([name, value]) => (
              <tr key={name}>
                <th scope="row" class="mono">
                  {name}
                </th>
                <td>
                  {typeof value === 'string' && /_at$/.test(name) ? (
                    <span title={value}>
                      {when(value)} ({ago(value)})
                    </span>
                  ) : (
                    <pre class="value">{value === null ? 'null' : json(value)}</pre>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    </>
  );
}

function Actions({ ws, memory, onChanged }: { ws: string; memory: Memory; onChanged(): void }) {
  const api = useApi();
  const memd = api.in(ws);
  const action = useAction();
  const location = useLocation();
  const [rate, setRate] = useState('0.1');
  const [editing, setEditing] = useState(false);
  const [confirmHard, setConfirmHard] = useState(false);
  const act = async (work: () => Promise<unknown>) => {
    if (await action.run(work)) onChanged();
  };
  return (
    <div class="stack">
      <div class="row wrap" role="toolbar" aria-label="Change this memory">
        <button type="button" onClick={() => setEditing(true)}>
          Edit
        </button>
        <button
          type="button"
          disabled={action.busy}
          onClick={() => act(() => memd.memories.update(memory.id, { pinned: !memory.pinned }))}
        >
          {memory.pinned ? 'Unpin' : 'Pin'}
        </button>
        <span class="row">
          <label class="inline">
            Decay by
            <input
              type="number"
              min={0}
              max={1}
              step={0.05}
              value={rate}
              onInput={(e) => setRate(e.currentTarget.value)}
              class="narrow"
            />
          </label>
          <button
            type="button"
            disabled={action.busy || memory.pinned}
            title={memory.pinned ? 'pinned memories do not decay' : undefined}
            onClick={() => act(() => memd.memories.decay(memory.id, { decay_rate: Number(rate) }))}
          >
            Decay
          </button>
        </span>
        <span class="muted small">importance {memory.importance.toFixed(3)}</span>
        {memory.status === 'active' && (
          <button
            type="button"
            disabled={action.busy}
            onClick={() => act(() => memd.memories.update(memory.id, { status: 'archived' }))}
          >
            Archive
          </button>
        )}
        {memory.status === 'archived' && (
          <button
            type="button"
            disabled={action.busy}
            onClick={() => act(() => memd.memories.update(memory.id, { status: 'active' }))}
          >
            Restore
          </button>
        )}
        {memory.status !== 'deleted' && (
          <button
            type="button"
            class="danger"
            disabled={action.busy}
            onClick={() => act(() => memd.memories.delete(memory.id))}
          >
            Delete
          </button>
        )}
        <button type="button" class="danger" disabled={action.busy} onClick={() => setConfirmHard(true)}>
          Delete for good…
        </button>
      </div>
      <ErrorNote error={action.error} />
      <EditMemory
        ws={ws}
        memory={memory}
        open={editing}
        onClose={() => setEditing(false)}
        onSaved={() => {
          setEditing(false);
          onChanged();
        }}
      />
      <Confirm
        title="Delete this memory for good?"
        open={confirmHard}
        confirmLabel="Delete for good"
        onCancel={() => setConfirmHard(false)}
        onConfirm={async () => {
          setConfirmHard(false);
          if (await action.run(() => memd.memories.delete(memory.id, { hard: true })))
            location.route(workspacePath(ws, 'memories'));
        }}
      >
        <p>The record and its links are removed; a soft delete (Delete) keeps the record with status deleted.</p>
      </Confirm>
    </div>
  );
}

function Associations({
  ws,
  memory,
  trace,
  onChanged,
}: {
  ws: string;
  memory: Memory;
  trace: Trace;
  onChanged(): void;
}) {
  const api = useApi();
  const memd = api.in(ws);
  const location = useLocation();
  const action = useAction();
  const [target, setTarget] = useState('');
  const [relationship, setRelationship] = useState('related_to');
  const [strength, setStrength] = useState('0.5');
  const chain = trace.association_chain;
  // The graph is drawn again only when the links change, not on every reload of the page's data.
  const drawn =
    chain.map(({ association: a, memory: m }) => `${a.id}:${a.strength}:${m.abstract}`).join('|') + memory.content;

  const { nodes, edges } = useMemo(() => {
    const around: ViewNode[] = chain
      .filter((link, index, all) => all.findIndex((other) => other.memory.id === link.memory.id) === index)
      .map((link, index, all) => {
        // From the top, clockwise: a single neighbour sits above, its label clear of the centre's.
        const angle = -Math.PI / 2 + (2 * Math.PI * index) / all.length;
        return {
          id: link.memory.id,
          label: link.memory.abstract.slice(0, 60),
          color: TYPE_COLORS[link.memory.type as MemoryType] ?? '#9ca3af',
          size: 8,
          x: Math.cos(angle),
          y: Math.sin(angle),
        };
      });
    const center: ViewNode = { id: memory.id, label: memory.content.slice(0, 60), color: ACCENT, size: 14, x: 0, y: 0 };
    const links: ViewEdge[] = chain.map(({ association: a }) => ({
      id: a.id,
      source: a.source_id,
      target: a.target_id,
      label: a.relationship,
      size: 1 + 4 * a.strength,
    }));
    return { nodes: [center, ...around], edges: links };
  }, [memory.id, drawn]);

  return (
    <section aria-labelledby="associations">
      <h2 id="associations">Associations ({chain.length})</h2>
      {chain.length > 0 && (
        <div class="split">
          <MemoryGraph
            nodes={nodes}
            edges={edges}
            label="This memory and its associations"
            height="320px"
            onSelect={(id) => id !== memory.id && location.route(`${workspacePath(ws, 'memories')}/${id}`)}
          />
          <table class="table compact">
            <thead>
              <tr>
                <th scope="col">Relationship</th>
                <th scope="col">Strength</th>
                <th scope="col">Memory</th>
                <th scope="col">
                  <span class="sr-only">Remove</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {chain.map(({ association: a, direction, category, memory: other }) => (
                <tr key={a.id}>
                  <td>
                    {direction === 'outgoing' ? '→' : '←'} {a.relationship} <span class="muted small">{category}</span>
                  </td>
                  <td class="num">{a.strength.toFixed(2)}</td>
                  <td>
                    <a href={`${workspacePath(ws, 'memories')}/${other.id}`}>{other.abstract}</a>
                  </td>
                  <td>
                    <button
                      type="button"
                      class="ghost small"
                      aria-label={`Remove the ${a.relationship} link`}
                      onClick={async () =>
                        (await action.run(() => memd.associations.delete(memory.id, a.id))) && onChanged()
                      }
                    >
                      ✕
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <form
        class="row wrap"
        aria-label="Link this memory to another"
        onSubmit={async (event) => {
          event.preventDefault();
          if (
            await action.run(() =>
              memd.associations.create(memory.id, {
                target_id: target.trim(),
                relationship,
                strength: Number(strength),
              }),
            )
          ) {
            setTarget('');
            onChanged();
          }
        }}
      >
        <label>
          Link to memory id
          <input value={target} onInput={(e) => setTarget(e.currentTarget.value)} required placeholder="mem_…" />
        </label>
        <label>
          Relationship
          <input
            value={relationship}
            onInput={(e) => setRelationship(e.currentTarget.value)}
            required
            list="relationships"
          />
        </label>
        <label>
          Strength
          <input
            type="number"
            min={0}
            max={1}
            step={0.1}
            value={strength}
            onInput={(e) => setStrength(e.currentTarget.value)}
            class="narrow"
          />
        </label>
        <button type="submit" disabled={action.busy}>
          Link
        </button>
      </form>
      <Relationships ws={ws} />
      <ErrorNote error={action.error} />
    </section>
  );
}

/** The workspace's relationship types, offered as the link form's suggestions. */
function Relationships({ ws }: { ws: string }) {
  const { memd } = useApi();
  const schema = useLoad((signal) => memd.workspaces.schema(ws, { signal }), [ws]);
  return (
    <datalist id="relationships">
      {schema.data?.relationship_types.map((type) => (
        <option key={type} value={type} />
      ))}
    </datalist>
  );
}

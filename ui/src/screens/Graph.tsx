import { useLocation, useRoute } from 'preact-iso';
import { useMemo, useState } from 'preact/hooks';
import { useApi } from '../api';
import { Facts } from '../components/Badges';
import { ErrorNote, Loading } from '../components/Feedback';
import { workspacePath } from '../components/Layout';
import { MemoryGraph } from '../components/MemoryGraph';
import type { ViewEdge, ViewNode } from '../components/graph-view';
import { count, score } from '../format';
import { useLoad } from '../hooks';
import { communityColor } from '../palette';
import type { GraphAnalysis as Analysis, Snapshot } from '../types';

const SIZES = [500, 2000, 5000] as const;

/**
 * Where each node starts: communities on a ring, their members on a small circle around its point, so that
 * ForceAtlas2 begins near a picture where communities are apart and converges in fewer steps.
 */
function seedPositions(
  ids: readonly string[],
  communityOf: ReadonlyMap<string, number>,
  communities: number,
): Map<string, { x: number; y: number }> {
  const members = new Map<number, string[]>();
  for (const id of ids) {
    const c = communityOf.get(id) ?? -1;
    const list = members.get(c);
    if (list) list.push(id);
    else members.set(c, [id]);
  }
  const ring = Math.max(1, Math.sqrt(communities)) * 10;
  const positions = new Map<string, { x: number; y: number }>();
  let group = 0;
  for (const [, list] of [...members.entries()].sort((a, b) => b[1].length - a[1].length)) {
    const angle = (2 * Math.PI * group++) / Math.max(1, members.size);
    const cx = group === 1 ? 0 : ring * Math.cos(angle);
    const cy = group === 1 ? 0 : ring * Math.sin(angle);
    const radius = Math.sqrt(list.length);
    list.forEach((id, i) => {
      const a = (2 * Math.PI * i) / list.length;
      positions.set(id, { x: cx + radius * Math.cos(a), y: cy + radius * Math.sin(a) });
    });
  }
  return positions;
}

function viewOf(
  snapshot: Snapshot,
  analysis: Analysis,
): { nodes: ViewNode[]; edges: ViewEdge[]; communityOf: Map<string, number> } {
  const communityOf = new Map<string, number>();
  for (const community of analysis.communities.communities)
    for (const id of community.memory_ids) communityOf.set(id, community.id);
  const pagerank = new Map(analysis.centrality.nodes.map((n) => [n.memory_id, n.pagerank]));
  const top = Math.max(1e-9, ...pagerank.values());
  const positions = seedPositions(
    snapshot.nodes.map((n) => n.id),
    communityOf,
    analysis.communities.community_count,
  );
  const nodes = snapshot.nodes.map((n) => ({
    id: n.id,
    label: n.label.slice(0, 80),
    color: communityColor(communityOf.get(n.id)),
    size: 3 + 12 * Math.sqrt((pagerank.get(n.id) ?? 0) / top),
    ...positions.get(n.id)!,
  }));
  const edges = snapshot.edges.map((e) => ({
    id: e.id,
    source: e.source,
    target: e.target,
    label: e.relationship,
    size: 0.5 + 2 * e.strength,
  }));
  return { nodes, edges, communityOf };
}

/** The workspace's association graph: communities coloured, centrality sized; pan, zoom, click through. */
export function Graph() {
  const { params } = useRoute();
  const ws = params.ws!;
  const api = useApi();
  const memd = api.in(ws);
  const location = useLocation();
  const [maxNodes, setMaxNodes] = useState<number>(2000);
  const [resolution, setResolution] = useState(1);
  const [focus, setFocus] = useState<number | null>(null);

  const loaded = useLoad(
    async (signal) => {
      const [snapshot, analysis] = await Promise.all([
        memd.graph.snapshot({ max_nodes: maxNodes }, { signal }),
        // The analysis of the memories drawn, not of the whole workspace: communities and ranks of this picture.
        memd.graph.analyze(
          { resolution, top_k: Math.min(10_000, maxNodes), sort_by: 'pagerank', max_nodes: maxNodes },
          { signal, timeoutMs: 120_000 },
        ),
      ]);
      return { snapshot, analysis, ...viewOf(snapshot, analysis) };
    },
    [ws, maxNodes, resolution],
  );
  const data = loaded.data;
  const highlight = useMemo(() => {
    if (focus === null || !data) return null;
    return new Set(data.analysis.communities.communities.find((c) => c.id === focus)?.memory_ids ?? []);
  }, [focus, data]);
  const labelOf = useMemo(() => new Map(data?.snapshot.nodes.map((n) => [n.id, n.label]) ?? []), [data]);
  const memoryPath = (id: string) => `${workspacePath(ws, 'memories')}/${id}`;

  return (
    <section class="graph">
      <div class="row wrap spread">
        <h1>Graph</h1>
        <div class="row wrap">
          <label class="inline">
            Newest memories
            <select value={maxNodes} onChange={(e) => setMaxNodes(Number(e.currentTarget.value))}>
              {SIZES.map((n) => (
                <option key={n} value={n}>
                  {count(n)}
                </option>
              ))}
            </select>
          </label>
          <label class="inline">
            Community resolution
            <input
              type="number"
              class="narrow"
              min={0.1}
              max={10}
              step={0.1}
              value={resolution}
              onChange={(e) => setResolution(Number(e.currentTarget.value) || 1)}
            />
          </label>
        </div>
      </div>
      <ErrorNote error={loaded.error} />
      <Loading when={loaded.loading}>Reading and analysing the graph…</Loading>
      {data && data.nodes.length === 0 && <p class="muted">No active memory in this workspace yet.</p>}
      {data && data.nodes.length > 0 && (
        <div class="graphlayout">
          <MemoryGraph
            nodes={data.nodes}
            edges={data.edges}
            label="Association graph"
            layoutMs={Math.min(5000, 1200 + data.nodes.length)}
            highlight={highlight}
            onSelect={(id) => location.route(memoryPath(id))}
          />
          <aside class="stack" aria-label="Graph summary">
            <Facts
              items={[
                ['memories', `${count(data.snapshot.node_count)}${data.snapshot.truncated ? ' (newest only)' : ''}`],
                ['associations', count(data.snapshot.edge_count)],
                ['communities', count(data.analysis.communities.community_count)],
                ['modularity', score(data.analysis.communities.modularity)],
                ['components', count(data.analysis.stats.connected_components)],
              ]}
            />
            <p class="small">{data.analysis.summary.text}</p>
            <h2>Communities</h2>
            <ul class="plain legend">
              <li>
                <button type="button" class="link" aria-pressed={focus === null} onClick={() => setFocus(null)}>
                  all
                </button>
              </li>
              {data.analysis.communities.communities.slice(0, 20).map((c) => (
                <li key={c.id}>
                  <button
                    type="button"
                    class="link"
                    aria-pressed={focus === c.id}
                    onClick={() => setFocus(focus === c.id ? null : c.id)}
                  >
                    <span class="swatch" style={{ background: communityColor(c.id) }} />
                    {count(c.size)} ·{' '}
                    {labelOf.get(c.central_memory_ids[0] ?? '')?.slice(0, 48) ?? c.central_memory_ids[0]}
                  </button>
                </li>
              ))}
            </ul>
            <h2>Most central</h2>
            <ol class="small">
              {data.analysis.centrality.nodes.slice(0, 10).map((n) => (
                <li key={n.memory_id}>
                  <a href={memoryPath(n.memory_id)}>{labelOf.get(n.memory_id)?.slice(0, 60) ?? n.memory_id}</a>{' '}
                  <span class="muted">pagerank {score(n.pagerank)}</span>
                </li>
              ))}
            </ol>
          </aside>
        </div>
      )}
    </section>
  );
}

import { useEffect, useRef, useState } from 'preact/hooks';
import { isDark } from '../theme';
import type { GraphView, ViewEdge, ViewNode } from './graph-view';

interface Props {
  nodes: readonly ViewNode[];
  edges: readonly ViewEdge[];
  label: string;
  onSelect(id: string): void;
  /** ForceAtlas2 from the given positions for about this long; 0 keeps them. */
  layoutMs?: number;
  /** Nodes shown in full colour; the others are dimmed (null: all). */
  highlight?: ReadonlySet<string> | null;
  height?: string;
}

/** A pannable, zoomable graph of memories; clicking a node selects it. The renderer loads on first use. */
export function MemoryGraph({ nodes, edges, label, onSelect, layoutMs = 0, highlight = null, height = '60vh' }: Props) {
  const box = useRef<HTMLDivElement>(null);
  const view = useRef<GraphView | null>(null);
  const select = useRef(onSelect);
  select.current = onSelect;
  const [state, setState] = useState<'loading' | 'layout' | 'ready' | 'failed'>('loading');
  const [failure, setFailure] = useState('');

  useEffect(() => {
    let cancelled = false;
    setState('loading');
    import('./graph-view')
      .then(({ mountGraph }) => {
        if (cancelled || !box.current) return;
        setState(layoutMs > 0 ? 'layout' : 'ready');
        view.current = mountGraph(box.current, nodes, edges, {
          dark: isDark(),
          layoutMs,
          onSelect: (id) => select.current(id),
          onLayoutDone: () => !cancelled && setState('ready'),
        });
        if (highlight) view.current.highlight(highlight);
      })
      .catch((error: unknown) => {
        if (cancelled) return;
        setFailure(error instanceof Error ? error.message : String(error));
        setState('failed');
      });
    return () => {
      cancelled = true;
      view.current?.destroy();
      view.current = null;
    };
  }, [nodes, edges, layoutMs]);

  useEffect(() => view.current?.highlight(highlight), [highlight]);

  return (
    <div class="graphbox">
      <div class="graphtools" role="toolbar" aria-label={`${label}: zoom`}>
        <button type="button" onClick={() => view.current?.zoomIn()} aria-label="Zoom in">
          +
        </button>
        <button type="button" onClick={() => view.current?.zoomOut()} aria-label="Zoom out">
          −
        </button>
        <button type="button" onClick={() => view.current?.reset()} aria-label="Fit the whole graph">
          ⤢
        </button>
        <span class="muted small" aria-live="polite">
          {state === 'loading'
            ? 'loading the renderer…'
            : state === 'layout'
              ? 'laying out…'
              : state === 'failed'
                ? `cannot draw the graph here: ${failure}`
                : ''}
        </span>
      </div>
      <div
        ref={box}
        class="graphcanvas"
        style={{ height }}
        role="img"
        aria-label={`${label}: ${nodes.length} memories, ${edges.length} associations`}
      />
    </div>
  );
}

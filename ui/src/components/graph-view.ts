/**
 * The graph renderer: sigma.js (WebGL) over a graphology graph, laid out by ForceAtlas2 in a worker. Loaded on
 * demand (MemoryGraph imports this module dynamically), so pages without a graph do not download it.
 */
import Graph from 'graphology';
import FA2Layout from 'graphology-layout-forceatlas2/worker';
import forceAtlas2 from 'graphology-layout-forceatlas2';
import Sigma, { DEFAULT_STYLES } from 'sigma';

export interface ViewNode {
  id: string;
  label: string;
  color: string;
  size: number;
  x: number;
  y: number;
}

export interface ViewEdge {
  id: string;
  source: string;
  target: string;
  label: string;
  size: number;
}

export interface ViewOptions {
  dark: boolean;
  /** Run ForceAtlas2 from the given positions for about this long (0: keep the positions). */
  layoutMs: number;
  onSelect(id: string): void;
  onLayoutDone?: () => void;
}

export interface GraphView {
  highlight(ids: ReadonlySet<string> | null): void;
  zoomIn(): void;
  zoomOut(): void;
  reset(): void;
  destroy(): void;
}

export function mountGraph(
  container: HTMLElement,
  nodes: readonly ViewNode[],
  edges: readonly ViewEdge[],
  options: ViewOptions,
): GraphView {
  const graph = new Graph({ multi: true, type: 'directed' });
  for (const { id, ...attributes } of nodes) graph.addNode(id, { ...attributes, baseColor: attributes.color });
  for (const { id, source, target, ...attributes } of edges)
    if (graph.hasNode(source) && graph.hasNode(target)) graph.addDirectedEdgeWithKey(id, source, target, attributes);

  const renderer = new Sigma(graph, container, {
    // Sizes in screen pixels (sigma 4 measures them in graph positions by default, which a layout stretches).
    settings: {
      itemSizesReference: 'screen',
      renderEdgeLabels: nodes.length <= 40,
      labelDensity: 0.6,
      minCameraRatio: 0.02,
      maxCameraRatio: 8,
      // A frame due while the container has no size (a click on a node leaves the page before the view is destroyed)
      // is drawn at 1 pixel rather than thrown: sigma's default threw an uncaught error into the page.
      allowInvalidContainer: true,
    },
    styles: {
      nodes: [
        DEFAULT_STYLES.nodes,
        {
          labelColor: options.dark ? '#e6e6e6' : '#1d1d1f',
          backdropColor: options.dark ? '#26282c' : '#ffffff',
          cursor: 'pointer',
        },
      ],
      edges: [
        DEFAULT_STYLES.edges,
        { color: options.dark ? '#5b6069' : '#c4c7cc', labelColor: options.dark ? '#b8bcc4' : '#55595f' },
      ],
    },
  });
  renderer.on('clickNode', ({ node }) => options.onSelect(node));

  let layout: FA2Layout | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  if (options.layoutMs > 0 && graph.order > 2) {
    layout = new FA2Layout(graph, {
      settings: { ...forceAtlas2.inferSettings(graph), barnesHutOptimize: graph.order > 500 },
    });
    layout.start();
    timer = setTimeout(() => {
      layout?.stop();
      options.onLayoutDone?.();
    }, options.layoutMs);
  } else {
    options.onLayoutDone?.();
  }

  const camera = renderer.getCamera();
  return {
    highlight(ids) {
      const dim = options.dark ? '#3a3d42' : '#e3e5e8';
      graph.forEachNode((node, attributes) =>
        graph.setNodeAttribute(node, 'color', ids === null || ids.has(node) ? attributes.baseColor : dim),
      );
    },
    zoomIn: () => void camera.zoomIn({ duration: 200 }),
    zoomOut: () => void camera.zoomOut({ duration: 200 }),
    reset: () => void camera.reset({ duration: 200 }),
    destroy() {
      clearTimeout(timer);
      layout?.kill();
      renderer.kill();
    },
  };
}

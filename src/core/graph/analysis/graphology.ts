/**
 * The graphology functions the analyses use, typed as they behave at run time: these packages are CommonJS, and
 * their declarations' `export default` types the namespace instead of the function under NodeNext resolution.
 */
import louvainModule from 'graphology-communities-louvain';
import eigenvectorModule from 'graphology-metrics/centrality/eigenvector.js';
import pagerankModule from 'graphology-metrics/centrality/pagerank.js';

export { UndirectedGraph } from 'graphology';
export { createUnweightedIndexedBrandes } from 'graphology-shortest-path/indexed-brandes.js';

export const louvain = louvainModule as unknown as typeof louvainModule.default;
export const eigenvectorCentrality = eigenvectorModule as unknown as typeof eigenvectorModule.default;
export const pagerank = pagerankModule as unknown as typeof pagerankModule.default;

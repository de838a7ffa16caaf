import { graphWorkspace, link, remember } from './graph.js';
import type { MemdClient } from '../../packages/client/src/index.js';

export const DATABASES = [
  'PostgreSQL replication lags when the WAL volume spikes during batch imports',
  'Run VACUUM ANALYZE on the orders table in PostgreSQL every night',
  'Autovacuum thresholds for the orders table in PostgreSQL were lowered to five percent',
  'The orders table in PostgreSQL holds forty million rows and grows every week',
  'PostgreSQL read replicas serve the reporting dashboards',
];
export const GARDENING = [
  'Tomatoes need full sun and deep watering twice a week',
  'Water the tomatoes early in the morning to avoid mildew',
  'Basil grows well next to tomatoes and keeps pests away',
  'Prune the side shoots of the tomatoes every weekend',
];
export const BAKING = [
  'The sourdough starter needs feeding with rye flour every day',
  'Sourdough loaves proof overnight in the fridge',
  'Bake the sourdough at 250 degrees in a covered pot',
];

/**
 * A workspace with three topics of tightly linked memories (databases, gardening, baking), one association between
 * gardening and baking, and two memories linked to nothing.
 */
export async function seedTopics(memd: MemdClient, id: string) {
  const ws = await graphWorkspace(memd, id);
  const db = await remember(memd, ws, DATABASES);
  const garden = await remember(memd, ws, GARDENING);
  const bread = await remember(memd, ws, BAKING);
  const loners = await remember(memd, ws, [
    'The office wifi password changes monthly',
    'Quarterly taxes are due in April',
  ]);
  for (const group of [db, garden, bread]) {
    for (let i = 0; i < group.length; i++)
      for (let j = i + 1; j < group.length; j++) await link(memd, ws, group[i]!, group[j]!, 'related_to', 0.8);
  }
  await link(memd, ws, garden[0]!, bread[0]!, 'related_to', 0.3);
  return { ws, db, garden, bread, loners };
}

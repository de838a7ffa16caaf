import { startServer, client } from './test/support/server.js';
const server = await startServer({});
const api = client(server.url);
for (const round of [0, 1]) {
  let t = performance.now();
  for (let i = 0; i < 200; i++) await api.post('/v1/memories', { content: `sequential memory ${round} ${i} about topic ${i * 31}` });
  console.log('sequential per create ms', ((performance.now() - t) / 200).toFixed(2));
  t = performance.now();
  await Promise.all(Array.from({ length: 200 }, (_, i) => api.post('/v1/memories', { content: `concurrent memory ${round} ${i} about topic ${i * 31}` })));
  console.log('concurrent 200 total ms', (performance.now() - t).toFixed(0));
}
await server.stop();

import Database from 'better-sqlite3';
import { createApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { questions } from './recall/corpus.js';
const times = new Map<string, { ms: number; n: number }>();
const proto = (Database as any).prototype;
const origPrepare = proto.prepare;
let on = false;
proto.prepare = function (sql: string, ...rest: unknown[]) {
  const st = origPrepare.call(this, sql, ...rest);
  for (const m of ['run', 'all', 'get', 'iterate']) {
    const f = st[m];
    if (typeof f !== 'function') continue;
    st[m] = function (...a: unknown[]) { const t = performance.now(); try { return f.apply(this, a); } finally { if (on) { const k = sql.replace(/\?(, \?)+/g, '?…'); const e = times.get(k) ?? { ms: 0, n: 0 }; e.ms += performance.now() - t; e.n++; times.set(k, e); } } };
  }
  return st;
};
const app = await createApp(loadConfig({ MEMD_DATA_DIR: '/tmp/memd-bench-recall/sqlite-100000', MEMD_RECALL_CACHE_ENTRIES: '0', MEMD_LOG_LEVEL: 'warn', MEMD_SANDBOX_SPARE: 'off' }));
const url = await app.listen(0);
await app.ready();
const qs = questions(300);
for (const q of qs) await fetch(url + '/v1/memories/recall', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ workspace_id: 'bench', query: q }) });
on = true;
const lat: number[] = [];
for (const q of qs) { const r = await (await fetch(url + '/v1/memories/recall', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ workspace_id: 'bench', query: q }) })).json() as any; lat.push(r.search_latency_ms); }
on = false;
lat.sort((a, b) => a - b);
console.log('p50', lat[150], 'p99', lat[297]);
for (const [sql, e] of [...times].sort((a, b) => b[1].ms - a[1].ms).slice(0, 14)) console.log(e.ms.toFixed(0).padStart(7), String(e.n).padStart(6), (e.ms / e.n).toFixed(2).padStart(7), sql.replace(/\s+/g, ' ').slice(0, 260));
await app.close();

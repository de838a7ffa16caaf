import { useState } from 'preact/hooks';
import { useApi } from '../api';
import { Badge } from '../components/Badges';
import { ErrorNote, Loading } from '../components/Feedback';
import { workspacePath } from '../components/Layout';
import { ago } from '../format';
import { useLoad } from '../hooks';

const LOOKBACKS: Array<[number, string]> = [
  [60, 'the last hour'],
  [24 * 60, 'the last day'],
  [7 * 24 * 60, 'the last week'],
  [30 * 24 * 60, 'the last 30 days'],
];
const DETAIL_LEVELS = ['abstract', 'overview', 'full'] as const;

/** The briefing an agent reads when a session starts: what happened lately, and what contradicts what. */
export function Briefing({ ws }: { ws: string }) {
  const { memd } = useApi();
  const [minutes, setMinutes] = useState(24 * 60);
  const [detail, setDetail] = useState<(typeof DETAIL_LEVELS)[number]>('abstract');
  const loaded = useLoad(
    async (signal) =>
      (
        await memd.sessions.briefing(
          { workspace_id: ws, lookback_minutes: minutes, detail_level: detail, limit: 20 },
          { signal },
        )
      ).briefing,
    [ws, minutes, detail],
  );
  const briefing = loaded.data;
  const memoryPath = (id: string) => `${workspacePath(ws, 'memories')}/${id}`;
  return (
    <div class="stack">
      <div class="row wrap">
        <label class="inline">
          Since
          <select value={minutes} onChange={(e) => setMinutes(Number(e.currentTarget.value))}>
            {LOOKBACKS.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </label>
        <label class="inline">
          Detail
          <select value={detail} onChange={(e) => setDetail(e.currentTarget.value as (typeof DETAIL_LEVELS)[number])}>
            {DETAIL_LEVELS.map((level) => (
              <option key={level}>{level}</option>
            ))}
          </select>
        </label>
      </div>
      <ErrorNote error={loaded.error} />
      <Loading when={loaded.loading && !briefing} />
      {briefing && (
        <article class="card stack">
          <p class="briefing">{briefing.summary}</p>
          <h3>Recent memories</h3>
          {briefing.recent_memories.length === 0 ? (
            <p class="muted">None in this window.</p>
          ) : (
            <ul class="plain">
              {briefing.recent_memories.map((m) => (
                <li key={m.id}>
                  <Badge kind={m.type}>{m.type}</Badge> <a href={memoryPath(m.id)}>{m.content}</a>{' '}
                  <span class="muted small">{ago(m.created_at)}</span>
                </li>
              ))}
            </ul>
          )}
          <h3>Contradictions</h3>
          {briefing.contradictions.length === 0 ? (
            <p class="muted">None open.</p>
          ) : (
            <ul class="plain">
              {briefing.contradictions.map((c) => (
                <li key={c.id}>
                  <Badge kind="contradiction">{c.contradiction_type}</Badge>{' '}
                  <a href={memoryPath(c.memory_a_id)}>{c.memory_a_content ?? c.memory_a_id}</a> ↔{' '}
                  <a href={memoryPath(c.memory_b_id)}>{c.memory_b_content ?? c.memory_b_id}</a>
                </li>
              ))}
            </ul>
          )}
          <p class="muted small">Generated {ago(briefing.generated_at)}.</p>
        </article>
      )}
    </div>
  );
}

import { useState } from 'preact/hooks';
import { Badge, Facts, ScoreBar } from '../components/Badges';
import { workspacePath } from '../components/Layout';
import { count, score } from '../format';
import type { LeftOut, RecallAnswer, RecalledMemory } from '../types';

type ArmRanks = LeftOut['arm_ranks'];

/** What a recall answered, and why: intents, arms, each result's scores and signals, the left-out candidates. */
export function RecallResults({ ws, answer }: { ws: string; answer: RecallAnswer }) {
  const explanation = answer.explanation;
  const arms = explanation?.arms ?? [];
  const memoryPath = (id: string) => `${workspacePath(ws, 'memories')}/${id}`;
  return (
    <section aria-labelledby="results" class="stack">
      <h2 id="results">
        {count(answer.total_count)} {answer.total_count === 1 ? 'memory' : 'memories'}
      </h2>
      <p class="row wrap small">
        <span>
          intents:{' '}
          {answer.intents.map((intent) => (
            <Badge key={intent} kind="intent">
              {intent}
            </Badge>
          ))}
        </span>
        <span class="muted">
          mode {answer.mode_used} · {answer.search_latency_ms.toFixed(1)} ms (query embedding{' '}
          {answer.query_embedding_ms.toFixed(1)} ms){answer.cached ? ' · from the cache' : ''} · {answer.query_tokens}{' '}
          query tokens · {answer.token_summary.savings_percent}% fewer tokens than full content
        </span>
      </p>
      {answer.query_rewritten && <p class="small">Rewritten with the conversation: “{answer.query_rewritten}”</p>}
      {explanation && (
        <p class="small muted">
          Arms that ran: {arms.join(', ')} (each proposes its best {explanation.arm_depth}) ·{' '}
          {count(explanation.candidates)} candidates · relevance floor {score(explanation.relevance_floor)} · recency
          weight {score(explanation.recency_weight)}
        </p>
      )}
      {explanation && Object.keys(explanation.synonyms).length > 0 && (
        <p class="small muted">
          No memory holds{' '}
          {Object.entries(explanation.synonyms)
            .map(([word, searched]) => `“${word}” (searched as ${searched.join(', ')})`)
            .join('; ')}
        </p>
      )}

      {answer.memories.length > 0 && explanation && (
        <ArmTable
          ws={ws}
          rows={answer.memories.map((m, i) => ({
            id: m.id,
            place: i + 1,
            content: m.content,
            ranks: m.explanation?.arm_ranks ?? {},
          }))}
          arms={arms}
        />
      )}

      <ol class="results">
        {answer.memories.map((memory, index) => (
          <Result key={memory.id} place={index + 1} memory={memory} href={memoryPath(memory.id)} />
        ))}
      </ol>

      {explanation && explanation.left_out.length > 0 && (
        <section aria-labelledby="left-out">
          <h3 id="left-out">Left out</h3>
          <p class="small muted">
            Candidates an arm proposed that did not make the answer: under the relevance floor, or ranked after the last
            place.
          </p>
          <table class="table compact">
            <thead>
              <tr>
                <th scope="col">Why</th>
                <th scope="col">Relevance</th>
                <th scope="col">Score</th>
                <th scope="col">Arm places</th>
                <th scope="col">Memory</th>
              </tr>
            </thead>
            <tbody>
              {explanation.left_out.map((candidate) => (
                <tr key={candidate.id}>
                  <td>
                    <Badge kind={candidate.reason}>
                      {candidate.reason === 'below_floor' ? 'under the floor' : 'past the limit'}
                    </Badge>
                  </td>
                  <td class="num">{score(candidate.relevance_score)}</td>
                  <td class="num">{candidate.reason === 'below_floor' ? '—' : score(candidate.boosted_score)}</td>
                  <td class="small">{placesText(candidate.arm_ranks)}</td>
                  <td>
                    <a href={memoryPath(candidate.id)}>{candidate.content}</a>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      )}
      {explanation && <WhyNot answer={answer} />}
    </section>
  );
}

const placesText = (ranks: ArmRanks): string =>
  Object.entries(ranks)
    .map(([arm, rank]) => `${arm} #${rank}`)
    .join(', ') || '—';

/** Rows are results, columns the arms that ran: where each arm placed each memory. */
function ArmTable({
  ws,
  rows,
  arms,
}: {
  ws: string;
  rows: Array<{ id: string; place: number; content: string; ranks: ArmRanks }>;
  arms: string[];
}) {
  return (
    <table class="table compact armtable">
      <caption>Where each arm placed the results (— : not among its candidates)</caption>
      <thead>
        <tr>
          <th scope="col">#</th>
          <th scope="col">Memory</th>
          {arms.map((arm) => (
            <th key={arm} scope="col">
              {arm}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.id}>
            <td class="num">{row.place}</td>
            <th scope="row" class="clip">
              <a href={`${workspacePath(ws, 'memories')}/${row.id}`}>{row.content}</a>
            </th>
            {arms.map((arm) => {
              const rank = row.ranks[arm];
              return (
                <td key={arm} class={`num${rank === 1 ? ' best' : ''}`}>
                  {rank ?? '—'}
                </td>
              );
            })}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Result({ place, memory, href }: { place: number; memory: RecalledMemory; href: string }) {
  const why = memory.explanation;
  return (
    <li class="result card">
      <div class="row wrap spread">
        <span class="row wrap">
          <strong>#{place}</strong>
          <Badge kind={memory.type}>{memory.type}</Badge>
          {why && <Badge kind={why.found_by}>found by {why.found_by}</Badge>}
          {memory.match_signals.map((signal) => (
            <Badge key={signal} kind="signal" title="match signal">
              {signal}
            </Badge>
          ))}
        </span>
        <span class="muted small">
          staleness {memory.staleness} · accessed {memory.access_count}×
        </span>
      </div>
      <p>
        <a href={href}>{memory.content}</a>
      </p>
      <div class="scores">
        <ScoreBar label="relevance" value={memory.relevance_score} />
        <span class="score">
          boosted score <strong>{score(memory.boosted_score)}</strong>
        </span>
        <ScoreBar label="trust" value={memory.trust_score} />
        <ScoreBar label="freshness" value={memory.freshness} />
      </div>
      {why && (
        <details>
          <summary>Why it matched</summary>
          <Facts
            items={[
              ['arm places', placesText(why.arm_ranks)],
              ['found by', why.found_by],
            ]}
          />
          {why.features && (
            <table class="table compact">
              <caption>Ranking features (each 0..1; the score is their weighted mean, times the boosts)</caption>
              <tbody>
                {Object.entries(why.features).map(([feature, value]) => (
                  <tr key={feature}>
                    <th scope="row">{feature}</th>
                    <td>
                      <ScoreBar label={feature} value={value} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          {why.boosts && (
            <p class="small">
              Boosts: scope ×{why.boosts.scope.toFixed(2)} · recency ×{why.boosts.recency.toFixed(3)} · backlinks ×
              {why.boosts.backlink.toFixed(3)}
            </p>
          )}
          {!why.features && (
            <p class="small">
              Not found by the arms:{' '}
              {why.found_by === 'association'
                ? 'reached over an association from a result'
                : 'a neighbouring turn of a result in its conversation'}
              ; its score comes from that result.
            </p>
          )}
        </details>
      )}
    </li>
  );
}

/** Why not this one? A memory id: returned, left out (and why), or never a candidate. */
function WhyNot({ answer }: { answer: RecallAnswer }) {
  const [id, setId] = useState('');
  const [verdict, setVerdict] = useState<string | undefined>();
  const explain = (wanted: string) => {
    const place = answer.memories.findIndex((m) => m.id === wanted);
    if (place >= 0) return `It came back, at place ${place + 1}.`;
    const left = answer.explanation?.left_out.find((c) => c.id === wanted);
    if (left)
      return left.reason === 'below_floor'
        ? `An arm found it (${placesText(left.arm_ranks)}), but its relevance ${score(left.relevance_score)} is under the floor ${score(answer.explanation!.relevance_floor)}.`
        : `It passed the floor but ranked after the last place (score ${score(left.boosted_score)}, the last returned ${score(answer.memories.at(-1)?.boosted_score)}).`;
    return `No arm placed it among its best ${answer.explanation?.arm_depth ?? '?'} candidates (or a filter excluded it, or it is among the weaker left-out ones not listed): its words and meaning are too far from the query.`;
  };
  return (
    <form
      class="row wrap"
      aria-label="Ask why a memory did not come back"
      onSubmit={(event) => {
        event.preventDefault();
        setVerdict(explain(id.trim()));
      }}
    >
      <label>
        Why not this memory?
        <input value={id} onInput={(e) => setId(e.currentTarget.value)} placeholder="mem_…" required />
      </label>
      <button type="submit">Explain</button>
      {verdict && (
        <p role="status" class="grow">
          {verdict}
        </p>
      )}
    </form>
  );
}

import { useRoute } from 'preact-iso';
import { useState } from 'preact/hooks';
import { useApi } from '../api';
import { Badge } from '../components/Badges';
import { ErrorNote, Loading } from '../components/Feedback';
import { workspacePath } from '../components/Layout';
import { useAction } from '../hooks';
import type { Memory, RecallAnswer, ReflectAnswer } from '../types';
import { EMPTY_OPTIONS, recallBody, reflectBody, RecallForm, type RecallOptions } from './RecallForm';
import { RecallResults } from './RecallResults';

/** The recall playground: a query with every option; why each memory came back; the same question as reflect. */
export function Recall() {
  const { params, query } = useRoute();
  const ws = params.ws!;
  const api = useApi();
  const memd = api.in(ws);
  const recalling = useAction();
  const reflecting = useAction();
  const [answer, setAnswer] = useState<RecallAnswer | undefined>();
  const [reflection, setReflection] = useState<{ answer: ReflectAnswer; sources: Memory[] } | undefined>();

  const recall = async (options: RecallOptions) => {
    const done = await recalling.run(() => memd.memories.recall(recallBody(ws, options)));
    if (done) setAnswer(done.value);
  };
  const reflect = async (options: RecallOptions) => {
    const done = await reflecting.run(async () => {
      const answer = await memd.memories.reflect(reflectBody(ws, options));
      const sources = await Promise.all(
        answer.source_memories.map((id) => memd.memories.get(id).then((r) => r.memory)),
      );
      return { answer, sources };
    });
    if (done) setReflection(done.value);
  };

  return (
    <section class="recall">
      <h1>Recall</h1>
      <p class="muted">
        Ask as an agent would; see what came back, where each retrieval arm placed it, and what was left out.
      </p>
      <RecallForm
        initial={{ ...EMPTY_OPTIONS, query: query.q ?? '' }}
        busy={recalling.busy || reflecting.busy}
        onRecall={recall}
        onReflect={reflect}
      />
      <ErrorNote error={recalling.error} />
      <Loading when={recalling.busy}>Recalling…</Loading>
      {answer && <RecallResults ws={ws} answer={answer} />}
      <ErrorNote error={reflecting.error} />
      <Loading when={reflecting.busy}>Reflecting…</Loading>
      {reflection && <Reflection ws={ws} answer={reflection.answer} sources={reflection.sources} />}
    </section>
  );
}

function Reflection({ ws, answer, sources }: { ws: string; answer: ReflectAnswer; sources: Memory[] }) {
  return (
    <section class="card" aria-labelledby="reflection">
      <h2 id="reflection">Reflection</h2>
      <p class="row wrap">
        <Badge kind={answer.synthesis}>
          {answer.synthesis === 'llm' ? 'synthesised by the language model' : 'extractive: no language model'}
        </Badge>
        <span class="muted small">
          confidence {answer.confidence.toFixed(2)} · {answer.tokens_processed} tokens read
        </span>
      </p>
      <p class="reflection">{answer.reflection}</p>
      <h3>Sources</h3>
      {sources.length === 0 ? (
        <p class="muted">No source memory.</p>
      ) : (
        <ol>
          {sources.map((m) => (
            <li key={m.id}>
              <a href={`${workspacePath(ws, 'memories')}/${m.id}`}>{m.content}</a>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

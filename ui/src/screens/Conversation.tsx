import { useRoute } from 'preact-iso';
import { Briefing } from '../conversation/Briefing';
import { Contradictions } from '../conversation/Contradictions';
import { Sessions } from '../conversation/Sessions';
import { Threads } from '../conversation/Threads';
import { workspacePath } from '../components/Layout';

const TABS = [
  ['sessions', 'Sessions', Sessions],
  ['threads', 'Threads', Threads],
  ['contradictions', 'Contradictions', Contradictions],
  ['briefing', 'Briefing', Briefing],
] as const;

/** Conversation: sessions and their working memory, chat threads, contradictions, the briefing. */
export function Conversation() {
  const { params } = useRoute();
  const ws = params.ws!;
  const current = TABS.find(([tab]) => tab === params.tab) ?? TABS[0];
  const Screen = current[2];
  return (
    <section class="conversation">
      <h1>Conversation</h1>
      <nav class="tabs" aria-label="Conversation">
        {TABS.map(([tab, name]) => (
          <a
            key={tab}
            href={`${workspacePath(ws, 'conversation')}/${tab}`}
            aria-current={tab === current[0] ? 'page' : undefined}
          >
            {name}
          </a>
        ))}
      </nav>
      <Screen key={ws} ws={ws} />
    </section>
  );
}

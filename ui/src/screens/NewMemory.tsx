import { useState } from 'preact/hooks';
import { useApi } from '../api';
import { ErrorNote } from '../components/Feedback';
import { TypeSelect } from '../components/TypeSelect';
import { workspacePath } from '../components/Layout';
import { useAction } from '../hooks';
import type { Memory, MemoryDraft, MemoryType } from '../types';

const tagsOf = (text: string) =>
  text
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);

/** Write a memory through the write pipeline; the answer says what the duplicate check decided. */
export function NewMemory({ workspaceId, onCreated }: { workspaceId: string; onCreated(memory: Memory): void }) {
  const { memd } = useApi();
  const action = useAction();
  const [content, setContent] = useState('');
  const [type, setType] = useState<MemoryType | ''>('');
  const [subtype, setSubtype] = useState('');
  const [tags, setTags] = useState('');
  const [importance, setImportance] = useState('0.5');
  const [pinned, setPinned] = useState(false);
  const [written, setWritten] = useState<{ memory: Memory; action: string } | undefined>();

  return (
    <details class="card">
      <summary>Write a memory</summary>
      <form
        class="stack"
        aria-label="Write a memory"
        onSubmit={async (event) => {
          event.preventDefault();
          const draft: MemoryDraft = {
            workspace_id: workspaceId,
            content,
            importance: Number(importance),
            pinned,
            ...(type && { type }),
            ...(subtype.trim() && { subtype: subtype.trim() }),
            ...(tagsOf(tags).length && { tags: tagsOf(tags) }),
          };
          const answer = await action.run(() => memd.memories.create(draft));
          if (!answer) return;
          setWritten(answer.value);
          setContent('');
          onCreated(answer.value.memory);
        }}
      >
        <label>
          Content
          <textarea
            name="content"
            rows={3}
            value={content}
            onInput={(e) => setContent(e.currentTarget.value)}
            required
          />
        </label>
        <div class="row wrap">
          <TypeSelect value={type} onChange={setType} emptyLabel="classify for me" />
          <label>
            Subtype
            <input value={subtype} onInput={(e) => setSubtype(e.currentTarget.value)} placeholder="decision" />
          </label>
          <label>
            Tags
            <input value={tags} onInput={(e) => setTags(e.currentTarget.value)} placeholder="alice, billing" />
          </label>
          <label>
            Importance
            <input
              type="number"
              min={0}
              max={1}
              step={0.05}
              value={importance}
              onInput={(e) => setImportance(e.currentTarget.value)}
            />
          </label>
          <label class="check">
            <input type="checkbox" checked={pinned} onChange={(e) => setPinned(e.currentTarget.checked)} />
            pinned
          </label>
          <button type="submit" class="primary" disabled={action.busy}>
            Remember
          </button>
        </div>
        <ErrorNote error={action.error} />
        {written && (
          <p role="status">
            {written.action === 'created' ? 'Remembered' : `The duplicate check answered ${written.action}`}:{' '}
            <a href={`${workspacePath(workspaceId, 'memories')}/${written.memory.id}`}>{written.memory.id}</a>
          </p>
        )}
      </form>
    </details>
  );
}

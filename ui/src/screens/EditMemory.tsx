import { useState } from 'preact/hooks';
import { useApi } from '../api';
import { Dialog } from '../components/Dialog';
import { ErrorNote } from '../components/Feedback';
import { TypeSelect } from '../components/TypeSelect';
import { useAction } from '../hooks';
import type { Memory, MemoryChange, MemoryType } from '../types';

interface Props {
  ws: string;
  memory: Memory;
  open: boolean;
  onClose(): void;
  onSaved(): void;
}

/** Change a memory's content, type, subtype, importance, tags and metadata; only what changed is sent. */
export function EditMemory({ ws, memory, open, onClose, onSaved }: Props) {
  return (
    <Dialog title="Edit the memory" open={open} onClose={onClose}>
      <EditForm ws={ws} memory={memory} onClose={onClose} onSaved={onSaved} />
    </Dialog>
  );
}

function EditForm({ ws, memory, onClose, onSaved }: Omit<Props, 'open'>) {
  const api = useApi();
  const action = useAction();
  const [content, setContent] = useState(memory.content);
  const [type, setType] = useState<MemoryType>(memory.type);
  const [subtype, setSubtype] = useState(memory.subtype ?? '');
  const [importance, setImportance] = useState(String(memory.importance));
  const [tags, setTags] = useState(memory.tags.join(', '));
  const [metadata, setMetadata] = useState(JSON.stringify(memory.metadata, null, 2));
  const [invalid, setInvalid] = useState<string | undefined>();

  const changes = (): MemoryChange | undefined => {
    let parsed: Record<string, unknown>;
    try {
      parsed = JSON.parse(metadata) as Record<string, unknown>;
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
        throw new Error('metadata must be a JSON object');
    } catch (error) {
      setInvalid(error instanceof Error ? error.message : String(error));
      return undefined;
    }
    setInvalid(undefined);
    const nextTags = tags
      .split(',')
      .map((t) => t.trim())
      .filter(Boolean);
    const change: MemoryChange = {};
    if (content !== memory.content) change.content = content;
    if (type !== memory.type) change.type = type;
    if ((subtype.trim() || null) !== memory.subtype) change.subtype = subtype.trim() || null;
    if (Number(importance) !== memory.importance) change.importance = Number(importance);
    if (nextTags.join('\u0000') !== memory.tags.join('\u0000')) change.tags = nextTags;
    if (JSON.stringify(parsed) !== JSON.stringify(memory.metadata)) change.metadata = parsed;
    return change;
  };

  return (
    <form
      class="stack"
      onSubmit={async (event) => {
        event.preventDefault();
        const change = changes();
        if (!change) return;
        if (Object.keys(change).length === 0) return onClose();
        if (await action.run(() => api.in(ws).memories.update(memory.id, change))) onSaved();
      }}
    >
      <label>
        Content
        <textarea rows={5} value={content} onInput={(e) => setContent(e.currentTarget.value)} required />
      </label>
      <div class="row wrap">
        <TypeSelect value={type} onChange={(next) => next && setType(next)} />
        <label>
          Subtype
          <input value={subtype} onInput={(e) => setSubtype(e.currentTarget.value)} />
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
      </div>
      <label>
        Tags
        <input value={tags} onInput={(e) => setTags(e.currentTarget.value)} />
      </label>
      <label>
        Metadata (JSON)
        <textarea class="mono" rows={5} value={metadata} onInput={(e) => setMetadata(e.currentTarget.value)} />
      </label>
      <ErrorNote error={invalid ?? action.error} />
      <div class="row end">
        <button type="button" onClick={onClose}>
          Cancel
        </button>
        <button type="submit" class="primary" disabled={action.busy}>
          Save
        </button>
      </div>
    </form>
  );
}

import { useState } from 'preact/hooks';
import { useApi } from '../api';
import { ErrorNote, Loading } from '../components/Feedback';
import { useWorkspaces, workspacePath } from '../components/Layout';
import { useAction, useLoad } from '../hooks';
import { ago, count } from '../format';
import type { Workspace } from '../types';
import { WorkspacePanel } from './WorkspacePanel';

/** Workspaces: the list with their memories and open contradictions; create one; the selected one's panel. */
export function Workspaces() {
  const workspaces = useWorkspaces();
  const [selected, setSelected] = useState<string | undefined>();
  const current = workspaces.data?.find((w) => w.id === selected) ?? workspaces.data?.[0];

  return (
    <section class="split">
      <div class="pane">
        <h1>Workspaces</h1>
        <CreateWorkspace
          onCreated={(id) => {
            workspaces.reload();
            setSelected(id);
          }}
        />
        <ErrorNote error={workspaces.error} />
        <Loading when={workspaces.loading && !workspaces.data} />
        {workspaces.data && workspaces.data.length === 0 && (
          <p class="muted">No workspace yet: create one above, or write a memory (it lands in _default).</p>
        )}
        {workspaces.data && workspaces.data.length > 0 && (
          <table class="table">
            <caption class="sr-only">Workspaces</caption>
            <thead>
              <tr>
                <th scope="col">Workspace</th>
                <th scope="col">Memories</th>
                <th scope="col">Open contradictions</th>
                <th scope="col">Created</th>
              </tr>
            </thead>
            <tbody>
              {workspaces.data.map((workspace) => (
                <WorkspaceRow
                  key={workspace.id}
                  workspace={workspace}
                  selected={workspace.id === current?.id}
                  onSelect={() => setSelected(workspace.id)}
                />
              ))}
            </tbody>
          </table>
        )}
      </div>
      {current && <WorkspacePanel key={current.id} workspace={current} onChanged={workspaces.reload} />}
    </section>
  );
}

function WorkspaceRow({
  workspace,
  selected,
  onSelect,
}: {
  workspace: Workspace;
  selected: boolean;
  onSelect(): void;
}) {
  const { memd } = useApi();
  const counts = useLoad(
    async (signal) => {
      const [memories, contradictions] = await Promise.all([
        memd.memories.list({ workspace_id: workspace.id, limit: 1 }, { signal }),
        memd.contradictions.list(workspace.id, { limit: 500 }, { signal }),
      ]);
      return { memories: memories.total_count, contradictions: contradictions.count };
    },
    [workspace.id],
  );
  return (
    <tr class={selected ? 'selected' : undefined} aria-selected={selected}>
      <th scope="row">
        <button type="button" class="link" onClick={onSelect} aria-pressed={selected}>
          {workspace.name}
        </button>
        {workspace.name !== workspace.id && <div class="muted mono small">{workspace.id}</div>}
      </th>
      <td class="num">{counts.data ? count(counts.data.memories) : counts.error ? '?' : '…'}</td>
      <td class="num">
        {counts.data ? (
          counts.data.contradictions > 0 ? (
            <a href={`${workspacePath(workspace.id, 'conversation')}/contradictions`}>
              {counts.data.contradictions >= 500 ? '500+' : count(counts.data.contradictions)}
            </a>
          ) : (
            '0'
          )
        ) : (
          '…'
        )}
      </td>
      <td title={workspace.created_at}>{ago(workspace.created_at)}</td>
    </tr>
  );
}

function CreateWorkspace({ onCreated }: { onCreated(id: string): void }) {
  const { memd } = useApi();
  const action = useAction();
  const [name, setName] = useState('');
  const [id, setId] = useState('');
  return (
    <form
      class="row wrap"
      aria-label="Create a workspace"
      onSubmit={async (event) => {
        event.preventDefault();
        const created = await action.run(() =>
          memd.workspaces.create({ name: name.trim(), ...(id.trim() && { id: id.trim() }) }),
        );
        if (!created) return;
        setName('');
        setId('');
        onCreated(created.value.workspace.id);
      }}
    >
      <label>
        Name
        <input value={name} onInput={(e) => setName(e.currentTarget.value)} required maxLength={200} />
      </label>
      <label>
        <span>
          Id <span class="muted">(optional)</span>
        </span>
        <input value={id} onInput={(e) => setId(e.currentTarget.value)} maxLength={128} placeholder="ws_… generated" />
      </label>
      <button type="submit" class="primary" disabled={action.busy}>
        Create workspace
      </button>
      <ErrorNote error={action.error} />
    </form>
  );
}

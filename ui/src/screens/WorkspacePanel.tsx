import { useLocation } from 'preact-iso';
import { useState } from 'preact/hooks';
import { MEMORY_TYPES, useApi } from '../api';
import { Badge } from '../components/Badges';
import { Confirm } from '../components/Dialog';
import { ErrorNote, Loading, Progress } from '../components/Feedback';
import { workspacePath } from '../components/Layout';
import { ago, count } from '../format';
import { useAction, useLoad } from '../hooks';
import { exportToFile, importFile, type Progress as Done } from '../transfer';
import type { ImportReport, MemoryStatus, Workspace } from '../types';

const STATUSES: MemoryStatus[] = ['active', 'archived', 'deleted'];
/** Recent activity: what the briefing says of the last day. */
const ACTIVITY_MINUTES = 24 * 60;

/** One workspace: counts by type and status, recent activity, open contradictions; rename, export, import, delete. */
export function WorkspacePanel({ workspace, onChanged }: { workspace: Workspace; onChanged(): void }) {
  const { memd } = useApi();
  const ws = workspace.id;
  const stats = useLoad(
    async (signal) => {
      // The list's total_count under a filter is the count: one small request per type and status.
      const total = async (query: Parameters<typeof memd.memories.list>[0]) =>
        (await memd.memories.list({ workspace_id: ws, limit: 1, ...query }, { signal })).total_count;
      const [byType, byStatus, contradictions, briefing] = await Promise.all([
        Promise.all(MEMORY_TYPES.map(async (type) => [type, await total({ type: [type] })] as const)),
        Promise.all(STATUSES.map(async (status) => [status, await total({ status })] as const)),
        memd.contradictions.list(ws, { limit: 500 }, { signal }),
        memd.sessions.briefing(
          { workspace_id: ws, lookback_minutes: ACTIVITY_MINUTES, limit: 5, include_contradictions: false },
          { signal },
        ),
      ]);
      return { byType, byStatus, contradictions: contradictions.count, briefing: briefing.briefing };
    },
    [ws],
  );

  return (
    <aside class="pane panel" aria-label={`Workspace ${workspace.name}`}>
      <h2>{workspace.name}</h2>
      <p class="muted mono">{ws}</p>
      <p class="row wrap">
        <a class="button" href={workspacePath(ws, 'memories')}>
          Browse memories
        </a>
        <a class="button" href={workspacePath(ws, 'recall')}>
          Recall
        </a>
        <a class="button" href={workspacePath(ws, 'graph')}>
          Graph
        </a>
      </p>
      <ErrorNote error={stats.error} />
      <Loading when={stats.loading && !stats.data} />
      {stats.data && (
        <>
          <div class="row wrap top">
            <CountTable title="Active memories by type" rows={stats.data.byType} />
            <CountTable title="Memories by status" rows={stats.data.byStatus} />
          </div>
          <p>
            {stats.data.contradictions > 0 ? (
              <a href={`${workspacePath(ws, 'conversation')}/contradictions`}>
                {stats.data.contradictions >= 500 ? '500+' : stats.data.contradictions} open contradiction
                {stats.data.contradictions === 1 ? '' : 's'}
              </a>
            ) : (
              'No open contradiction.'
            )}
          </p>
          <h3>Recent activity</h3>
          <p>{stats.data.briefing.summary}</p>
          <ul class="plain">
            {stats.data.briefing.recent_memories.map((m) => (
              <li key={m.id}>
                <Badge kind={m.type}>{m.type}</Badge>{' '}
                <a href={`${workspacePath(ws, 'memories')}/${m.id}`}>{m.content}</a>{' '}
                <span class="muted">{ago(m.created_at)}</span>
              </li>
            ))}
          </ul>
        </>
      )}
      <Rename workspace={workspace} onChanged={onChanged} />
      <Transfer
        workspace={workspace}
        onImported={() => {
          stats.reload();
          onChanged();
        }}
      />
      <Delete workspace={workspace} onDeleted={onChanged} />
    </aside>
  );
}

function CountTable({ title, rows }: { title: string; rows: ReadonlyArray<readonly [string, number]> }) {
  return (
    <table class="table compact">
      <caption>{title}</caption>
      <tbody>
        {rows.map(([name, n]) => (
          <tr key={name}>
            <th scope="row">
              <Badge kind={name}>{name}</Badge>
            </th>
            <td class="num">{count(n)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Rename({ workspace, onChanged }: { workspace: Workspace; onChanged(): void }) {
  const { memd } = useApi();
  const action = useAction();
  const [name, setName] = useState(workspace.name);
  return (
    <form
      class="row wrap"
      aria-label="Rename the workspace"
      onSubmit={async (event) => {
        event.preventDefault();
        if (await action.run(() => memd.workspaces.update(workspace.id, { name: name.trim() }))) onChanged();
      }}
    >
      <label>
        Name
        <input value={name} onInput={(e) => setName(e.currentTarget.value)} required maxLength={200} />
      </label>
      <button type="submit" disabled={action.busy || name.trim() === workspace.name}>
        Rename
      </button>
      <ErrorNote error={action.error} />
    </form>
  );
}

function Transfer({ workspace, onImported }: { workspace: Workspace; onImported(): void }) {
  const { memd } = useApi();
  const exporting = useAction();
  const importing = useAction();
  const [exported, setExported] = useState<Done | undefined>();
  const [sent, setSent] = useState<Done | undefined>();
  const [report, setReport] = useState<ImportReport | undefined>();
  return (
    <section aria-label="Export and import">
      <h3>Export and import</h3>
      <div class="row wrap">
        <button
          type="button"
          disabled={exporting.busy}
          onClick={() => {
            setExported({ done: 0, total: undefined });
            void exporting.run(() => exportToFile(memd, workspace.id, setExported));
          }}
        >
          Export (NDJSON)
        </button>
        {exported && (
          <Progress
            label={`${count(exported.done)}${exported.total !== undefined ? ` of ${count(exported.total)}` : ''} memories`}
            value={exported.done}
            max={exported.total}
          />
        )}
      </div>
      <ErrorNote error={exporting.error} />
      <label>
        Import an export file into this workspace
        <input
          type="file"
          accept=".ndjson,.jsonl,application/x-ndjson"
          disabled={importing.busy}
          onChange={async (event) => {
            const input = event.currentTarget;
            const file = input.files?.[0];
            if (!file) return;
            setReport(undefined);
            setSent({ done: 0, total: file.size });
            const answer = await importing.run(() => importFile(workspace.id, file, setSent));
            input.value = '';
            if (answer) {
              setReport(answer.value);
              onImported();
            }
          }}
        />
      </label>
      {sent && importing.busy && (
        <Progress
          label={`${count(Math.round(sent.done / 1024))} of ${count(Math.round((sent.total ?? 0) / 1024))} KiB sent`}
          value={sent.done}
          max={sent.total}
        />
      )}
      <ErrorNote error={importing.error} />
      {report && (
        <p role="status">
          Imported {count(report.imported)} memories and {count(report.associations_imported)} associations;{' '}
          {count(report.skipped_duplicates)} duplicates skipped
          {report.errors > 0 && `, ${count(report.errors)} errors: ${report.details.slice(0, 3).join('; ')}`}.
        </p>
      )}
    </section>
  );
}

function Delete({ workspace, onDeleted }: { workspace: Workspace; onDeleted(): void }) {
  const { memd } = useApi();
  const action = useAction();
  const location = useLocation();
  const [asking, setAsking] = useState(false);
  const [typed, setTyped] = useState('');
  return (
    <section aria-label="Delete the workspace">
      <button type="button" class="danger" onClick={() => setAsking(true)}>
        Delete workspace…
      </button>
      <ErrorNote error={action.error} />
      <Confirm
        title={`Delete ${workspace.name}?`}
        open={asking}
        confirmLabel="Delete for good"
        ready={typed === workspace.id}
        onCancel={() => {
          setAsking(false);
          setTyped('');
        }}
        onConfirm={async () => {
          setAsking(false);
          const done = await action.run(() => memd.workspaces.delete(workspace.id));
          if (done) {
            onDeleted();
            location.route('/ui/workspaces');
          }
        }}
      >
        <p>Every memory, association, session, thread and contradiction of this workspace goes, for good.</p>
        <label>
          <span>
            Type <code>{workspace.id}</code> to confirm
          </span>
          <input value={typed} onInput={(e) => setTyped(e.currentTarget.value)} autocomplete="off" />
        </label>
      </Confirm>
    </section>
  );
}

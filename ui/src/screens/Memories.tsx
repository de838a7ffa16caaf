import { useLocation, useRoute } from 'preact-iso';
import { useEffect, useRef, useState } from 'preact/hooks';
import { describeError, isUnauthorized, MEMORY_TYPES, useApi } from '../api';
import { Badge } from '../components/Badges';
import { ErrorNote } from '../components/Feedback';
import { workspacePath } from '../components/Layout';
import { VirtualList } from '../components/VirtualList';
import { ago, count } from '../format';
import type { Memory, MemoryListQuery, MemoryType } from '../types';
import { NewMemory } from './NewMemory';

const PAGE = 100;
const ROW_HEIGHT = 46;

/** The filters the URL holds (so that a filtered list can be linked and Back works), as the API names them. */
type Filters = Omit<MemoryListQuery, 'limit' | 'cursor' | 'workspace_id'>;
const TEXT_FILTERS = ['user_id', 'subject_id', 'observer_id', 'session_id', 'context_id'] as const;
const LIST_FILTERS = ['subtype', 'tags'] as const;
const STATUSES = ['active', 'archived', 'deleted', 'all'] as const;

const words = (text: string | undefined): string[] | undefined => {
  const list = (text ?? '')
    .split(',')
    .map((w) => w.trim())
    .filter(Boolean);
  return list.length ? list : undefined;
};

function filtersOf(query: Record<string, string>): Filters {
  const filters: Filters = {};
  const types = words(query.type)?.filter((t): t is MemoryType => (MEMORY_TYPES as string[]).includes(t));
  if (types?.length) filters.type = types;
  for (const key of LIST_FILTERS) if (words(query[key])) filters[key] = words(query[key]);
  for (const key of TEXT_FILTERS) if (query[key]) filters[key] = query[key];
  if (STATUSES.includes(query.status as (typeof STATUSES)[number])) filters.status = query.status as Filters['status'];
  if (query.created_after) filters.created_after = query.created_after;
  if (query.created_before) filters.created_before = query.created_before;
  return filters;
}

function searchOf(filters: Filters): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filters)) {
    if (value === undefined || value === '' || (Array.isArray(value) && value.length === 0)) continue;
    params.set(key, Array.isArray(value) ? value.join(',') : String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** A date input's day as the start (or end) of that day in UTC. */
const dayToIso = (day: string, end: boolean) => (day ? `${day}T${end ? '23:59:59.999' : '00:00:00.000'}Z` : undefined);

interface Page {
  items: Memory[];
  cursor: string | null;
  total: number | undefined;
  loading: boolean;
  error: string | undefined;
}

/** Memories: filters, a windowed list paged from the server by cursor, and a form to write one. */
export function Memories() {
  const { params, query } = useRoute();
  const location = useLocation();
  const ws = params.ws!;
  const api = useApi();
  const filters = filtersOf(query);
  const filterKey = `${ws}${searchOf(filters)}`;
  const [page, setPage] = useState<Page>({
    items: [],
    cursor: null,
    total: undefined,
    loading: true,
    error: undefined,
  });
  const inFlight = useRef<AbortController | null>(null);
  const [round, setRound] = useState(0);

  const load = (cursor: string | undefined) => {
    inFlight.current?.abort();
    const controller = new AbortController();
    inFlight.current = controller;
    setPage((p) => ({ ...p, loading: true, error: undefined }));
    api.memd.memories
      .list({ workspace_id: ws, limit: PAGE, ...filters, ...(cursor && { cursor }) }, { signal: controller.signal })
      .then((answer) => {
        if (controller.signal.aborted) return;
        setPage((p) => ({
          items: cursor ? [...p.items, ...answer.memories] : answer.memories,
          cursor: answer.next_cursor,
          total: answer.total_count,
          loading: false,
          error: undefined,
        }));
      })
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        if (isUnauthorized(error)) api.unauthorized();
        setPage((p) => ({ ...p, loading: false, error: describeError(error) }));
      });
  };

  useEffect(() => {
    setPage({ items: [], cursor: null, total: undefined, loading: true, error: undefined });
    load(undefined);
    return () => inFlight.current?.abort();
  }, [filterKey, round]);

  const setFilters = (next: Filters) => location.route(`${workspacePath(ws, 'memories')}${searchOf(next)}`, true);
  const open = (memory: Memory) => location.route(`${workspacePath(ws, 'memories')}/${memory.id}`);

  return (
    <section class="memories">
      <div class="row wrap spread">
        <h1>Memories</h1>
        <p class="muted" aria-live="polite">
          {page.total !== undefined
            ? `${count(page.total)} memories match · ${count(page.items.length)} loaded`
            : 'Loading…'}
        </p>
      </div>
      <NewMemory workspaceId={ws} onCreated={() => setRound((n) => n + 1)} />
      <FilterForm key={filterKey} filters={filters} onApply={setFilters} />
      <ErrorNote error={page.error} />
      <VirtualList
        label="Memories"
        items={page.items}
        total={page.total}
        rowHeight={ROW_HEIGHT}
        keyOf={(m) => m.id}
        onOpen={open}
        onEndReached={() => {
          if (page.cursor && !page.loading && !page.error) load(page.cursor);
        }}
        render={(m) => <MemoryRow memory={m} />}
      />
      {!page.loading && page.items.length === 0 && !page.error && <p class="muted">No memory matches these filters.</p>}
    </section>
  );
}

function MemoryRow({ memory: m }: { memory: Memory }) {
  return (
    <div class="memrow">
      <Badge kind={m.type}>{m.type}</Badge>
      <span class="content" title={m.content}>
        {m.pinned && (
          <span class="pin" role="img" title="pinned" aria-label="pinned">
            ★{' '}
          </span>
        )}
        {m.content}
      </span>
      <span class="tags">
        {m.status !== 'active' && <Badge kind={m.status}>{m.status}</Badge>}
        {m.source_memory_id && (
          <Badge kind="derived" title="derived from another memory (an atomic fact, an insight)">
            derived
          </Badge>
        )}
        {m.tags.slice(0, 3).map((t) => (
          <Badge key={t}>{t}</Badge>
        ))}
      </span>
      <span class="num small" title="importance">
        {m.importance.toFixed(2)}
      </span>
      <span class="muted small when" title={m.created_at}>
        {ago(m.created_at)}
      </span>
    </div>
  );
}

function FilterForm({ filters, onApply }: { filters: Filters; onApply(filters: Filters): void }) {
  const [draft, setDraft] = useState<Record<string, string>>(() => ({
    subtype: filters.subtype?.join(', ') ?? '',
    tags: filters.tags?.join(', ') ?? '',
    status: filters.status ?? 'active',
    created_after: filters.created_after?.slice(0, 10) ?? '',
    created_before: filters.created_before?.slice(0, 10) ?? '',
    ...Object.fromEntries(TEXT_FILTERS.map((key) => [key, filters[key] ?? ''])),
  }));
  const [types, setTypes] = useState<MemoryType[]>(filters.type ?? []);
  const field = (key: string, label: string, placeholder = '') => (
    <label>
      {label}
      <input
        name={key}
        value={draft[key]}
        placeholder={placeholder}
        onInput={(e) => setDraft({ ...draft, [key]: e.currentTarget.value })}
      />
    </label>
  );
  return (
    <form
      class="filters"
      aria-label="Filter memories"
      onSubmit={(event) => {
        event.preventDefault();
        const next: Filters = { ...(types.length && { type: types }), status: draft.status as Filters['status'] };
        for (const key of LIST_FILTERS) if (words(draft[key])) next[key] = words(draft[key]);
        for (const key of TEXT_FILTERS) if (draft[key]?.trim()) next[key] = draft[key]!.trim();
        const after = dayToIso(draft.created_after ?? '', false);
        const before = dayToIso(draft.created_before ?? '', true);
        if (after) next.created_after = after;
        if (before) next.created_before = before;
        onApply(next);
      }}
    >
      <fieldset class="types">
        <legend>Type</legend>
        {MEMORY_TYPES.map((type) => (
          <label key={type} class="check">
            <input
              type="checkbox"
              checked={types.includes(type)}
              onChange={(e) => setTypes(e.currentTarget.checked ? [...types, type] : types.filter((t) => t !== type))}
            />
            {type}
          </label>
        ))}
      </fieldset>
      {field('subtype', 'Subtypes', 'decision, fix')}
      {field('tags', 'Tags (all)', 'alice, billing')}
      {field('user_id', 'User')}
      {field('subject_id', 'Subject')}
      {field('observer_id', 'Observer')}
      {field('session_id', 'Session')}
      {field('context_id', 'Context')}
      <label>
        Status
        <select value={draft.status} onChange={(e) => setDraft({ ...draft, status: e.currentTarget.value })}>
          {STATUSES.map((s) => (
            <option key={s}>{s}</option>
          ))}
        </select>
      </label>
      <label>
        Created from
        <input
          type="date"
          value={draft.created_after}
          onInput={(e) => setDraft({ ...draft, created_after: e.currentTarget.value })}
        />
      </label>
      <label>
        to
        <input
          type="date"
          value={draft.created_before}
          onInput={(e) => setDraft({ ...draft, created_before: e.currentTarget.value })}
        />
      </label>
      <div class="row">
        <button type="submit" class="primary">
          Apply filters
        </button>
        <button type="button" onClick={() => onApply({})}>
          Clear
        </button>
      </div>
    </form>
  );
}

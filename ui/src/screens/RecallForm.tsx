import { useState } from 'preact/hooks';
import { MEMORY_TYPES } from '../api';
import type { MemoryType, RecallBody, ReflectBody } from '../types';

/** Every recall option as the form holds it: text, '' for the server's default. */
export interface RecallOptions {
  query: string;
  types: MemoryType[];
  subtypes: string;
  tags: string;
  context_id: string;
  observer_id: string;
  subject_id: string;
  user_id: string;
  mode: '' | NonNullable<RecallBody['mode']>;
  tolerance: '' | NonNullable<RecallBody['tolerance']>;
  limit: string;
  min_relevance: string;
  recency_weight: string;
  include_associations: '' | 'true' | 'false';
  traverse_depth: string;
  max_expansion: string;
  created_after: string;
  created_before: string;
  /** Recent conversation, one turn a line: `role: content`. */
  context: string;
  rag_threshold: string;
  detail_level: '' | NonNullable<RecallBody['detail_level']>;
  include_archived: boolean;
  exclude_ids: string;
  /** Reflect only. */
  depth: string;
  include_sources: boolean;
}

export const EMPTY_OPTIONS: RecallOptions = {
  query: '',
  types: [],
  subtypes: '',
  tags: '',
  context_id: '',
  observer_id: '',
  subject_id: '',
  user_id: '',
  mode: '',
  tolerance: '',
  limit: '10',
  min_relevance: '',
  recency_weight: '',
  include_associations: '',
  traverse_depth: '',
  max_expansion: '',
  created_after: '',
  created_before: '',
  context: '',
  rag_threshold: '',
  detail_level: '',
  include_archived: false,
  exclude_ids: '',
  depth: '2',
  include_sources: true,
};

const list = (text: string) =>
  text
    .split(',')
    .map((w) => w.trim())
    .filter(Boolean);
const number = (text: string) => (text.trim() === '' ? undefined : Number(text));
const text = (value: string) => value.trim() || undefined;
const iso = (local: string) => (local ? new Date(local).toISOString() : undefined);

/** Filters recall and reflect share. */
function filters(o: RecallOptions) {
  return {
    ...(o.types.length && { types: o.types }),
    ...(list(o.subtypes).length && { subtypes: list(o.subtypes) }),
    ...(list(o.tags).length && { tags: list(o.tags) }),
    ...(text(o.context_id) && { context_id: text(o.context_id) }),
    ...(text(o.observer_id) && { observer_id: text(o.observer_id) }),
    ...(text(o.subject_id) && { subject_id: text(o.subject_id) }),
    ...(o.detail_level && { detail_level: o.detail_level }),
  };
}

/** The recall request: the options the reader set, the server's defaults for the rest, and `explain`. */
export function recallBody(workspaceId: string, o: RecallOptions): RecallBody {
  const body: RecallBody = { workspace_id: workspaceId, query: o.query, explain: true, ...filters(o) };
  if (text(o.user_id)) body.user_id = text(o.user_id);
  if (o.mode) body.mode = o.mode;
  if (o.tolerance) body.tolerance = o.tolerance;
  if (number(o.limit) !== undefined) body.limit = number(o.limit);
  // The floor's three meanings: empty = the tolerance's floor, 0 = none, else at least this.
  if (number(o.min_relevance) !== undefined) body.min_relevance = number(o.min_relevance);
  if (number(o.recency_weight) !== undefined) body.recency_weight = number(o.recency_weight);
  if (o.include_associations) body.include_associations = o.include_associations === 'true';
  if (number(o.traverse_depth) !== undefined) body.traverse_depth = number(o.traverse_depth);
  if (number(o.max_expansion) !== undefined) body.max_expansion = number(o.max_expansion);
  if (iso(o.created_after)) body.created_after = iso(o.created_after);
  if (iso(o.created_before)) body.created_before = iso(o.created_before);
  const turns = o.context
    .split('\n')
    .map((line) => /^\s*(\w+)\s*:\s*(.+)$/.exec(line))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ role: m[1]!, content: m[2]! }));
  if (turns.length) body.context = turns;
  if (number(o.rag_threshold) !== undefined) body.rag_threshold = number(o.rag_threshold);
  if (o.include_archived) body.include_archived = true;
  if (list(o.exclude_ids).length) body.exclude_ids = list(o.exclude_ids);
  return body;
}

/** The same question as reflect: the filters they share, and reflect's own depth and sources. */
export function reflectBody(workspaceId: string, o: RecallOptions): ReflectBody {
  return {
    workspace_id: workspaceId,
    query: o.query,
    include_sources: o.include_sources,
    ...(number(o.depth) !== undefined && { depth: number(o.depth) }),
    ...filters(o),
  };
}

interface Props {
  initial: RecallOptions;
  busy: boolean;
  onRecall(options: RecallOptions): void;
  onReflect(options: RecallOptions): void;
}

/** The recall playground's form: the query, every recall option, and reflect's own two. */
export function RecallForm({ initial, busy, onRecall, onReflect }: Props) {
  const [o, setO] = useState(initial);
  const set = <K extends keyof RecallOptions>(key: K, value: RecallOptions[K]) =>
    setO((current) => ({ ...current, [key]: value }));
  const input = (key: keyof RecallOptions, label: string, attributes: Record<string, unknown> = {}) => (
    <label>
      {label}
      <input
        name={key}
        value={o[key] as string}
        onInput={(e) => set(key, e.currentTarget.value as never)}
        {...attributes}
      />
    </label>
  );
  const choice = (
    key: keyof RecallOptions,
    label: string,
    values: readonly string[],
    defaultLabel = 'server default',
  ) => (
    <label>
      {label}
      <select name={key} value={o[key] as string} onChange={(e) => set(key, e.currentTarget.value as never)}>
        <option value="">{defaultLabel}</option>
        {values.map((v) => (
          <option key={v}>{v}</option>
        ))}
      </select>
    </label>
  );

  return (
    <form
      class="stack"
      aria-label="Recall"
      onSubmit={(event) => {
        event.preventDefault();
        (event.submitter?.getAttribute('name') === 'reflect' ? onReflect : onRecall)(o);
      }}
    >
      <div class="row">
        <label class="grow">
          Query
          <input
            name="query"
            type="search"
            value={o.query}
            onInput={(e) => set('query', e.currentTarget.value)}
            required
            placeholder="what does Alice drink in the morning?"
          />
        </label>
        <button type="submit" name="recall" class="primary" disabled={busy}>
          Recall
        </button>
        <button type="submit" name="reflect" disabled={busy}>
          Reflect
        </button>
      </div>
      <details>
        <summary>Options</summary>
        <div class="optiongrid">
          <fieldset>
            <legend>Filters</legend>
            <div class="row wrap">
              {MEMORY_TYPES.map((type) => (
                <label key={type} class="check">
                  <input
                    type="checkbox"
                    checked={o.types.includes(type)}
                    onChange={(e) =>
                      set('types', e.currentTarget.checked ? [...o.types, type] : o.types.filter((t) => t !== type))
                    }
                  />
                  {type}
                </label>
              ))}
            </div>
            {input('subtypes', 'Subtypes')}
            {input('tags', 'Tags (all)')}
            {input('context_id', 'Context')}
            {input('observer_id', 'Observer')}
            {input('subject_id', 'Subject')}
            {input('user_id', 'User')}
            {input('created_after', 'Created after', { type: 'datetime-local' })}
            {input('created_before', 'Created before', { type: 'datetime-local' })}
            {input('exclude_ids', 'Exclude ids')}
            <label class="check">
              <input
                type="checkbox"
                checked={o.include_archived}
                onChange={(e) => set('include_archived', e.currentTarget.checked)}
              />
              include archived
            </label>
          </fieldset>
          <fieldset>
            <legend>Ranking</legend>
            {choice('mode', 'Mode', ['rag', 'llm', 'hybrid', 'agentic'])}
            {choice('tolerance', 'Tolerance', ['loose', 'moderate', 'strict'])}
            {input('limit', 'Limit', { type: 'number', min: 1, max: 100 })}
            {input('min_relevance', 'Min relevance (empty: the tolerance floor; 0: none)', {
              type: 'number',
              min: 0,
              max: 1,
              step: 0.05,
            })}
            {input('recency_weight', 'Recency weight', { type: 'number', min: 0, max: 1, step: 0.05 })}
            {input('rag_threshold', 'Rerank threshold', { type: 'number', min: 0, max: 1, step: 0.05 })}
            {choice('detail_level', 'Detail level', ['abstract', 'overview', 'full'])}
          </fieldset>
          <fieldset>
            <legend>Graph expansion</legend>
            {choice('include_associations', 'Expand over associations', ['true', 'false'])}
            {input('traverse_depth', 'Depth (0–5)', { type: 'number', min: 0, max: 5 })}
            {input('max_expansion', 'Most discoveries', { type: 'number', min: 1, max: 500 })}
          </fieldset>
          <fieldset>
            <legend>Conversation</legend>
            <label>
              Recent turns, one a line (role: content)
              <textarea
                name="context"
                rows={3}
                value={o.context}
                onInput={(e) => set('context', e.currentTarget.value)}
                placeholder={'user: I met Alice today\nassistant: How is she?'}
              />
            </label>
          </fieldset>
          <fieldset>
            <legend>Reflect</legend>
            {input('depth', 'Depth (1–5)', { type: 'number', min: 1, max: 5 })}
            <label class="check">
              <input
                type="checkbox"
                checked={o.include_sources}
                onChange={(e) => set('include_sources', e.currentTarget.checked)}
              />
              include sources
            </label>
          </fieldset>
        </div>
      </details>
    </form>
  );
}

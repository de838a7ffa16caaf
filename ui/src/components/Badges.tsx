import type { ComponentChildren } from 'preact';

/** A small label; `kind` picks its colour (a memory type, a status, a signal). */
export function Badge({ kind, children, title }: { kind?: string; children: ComponentChildren; title?: string }) {
  return (
    <span class={`badge${kind ? ` b-${kind}` : ''}`} title={title}>
      {children}
    </span>
  );
}

/** A score in 0..1 as a bar with its value. */
export function ScoreBar({ value, label }: { value: number; label: string }) {
  const clamped = Math.max(0, Math.min(1, value));
  return (
    // biome-ignore lint/a11y/useSemanticElements: a <meter> draws its own bar and hides its children; this shows the number.
    <span
      class="scorebar"
      role="meter"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={1}
      aria-valuenow={value}
      title={`${label}: ${value.toFixed(3)}`}
    >
      <span class="fill" style={{ width: `${clamped * 100}%` }} />
      <span class="value">{value.toFixed(3)}</span>
    </span>
  );
}

/** Labelled values side by side. */
export function Facts({ items }: { items: Array<[string, ComponentChildren]> }) {
  return (
    <dl class="facts">
      {items.map(([term, value]) => (
        <div key={term}>
          <dt>{term}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

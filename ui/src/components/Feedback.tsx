import type { ComponentChildren } from 'preact';

/** An error in words, announced to screen readers. */
export function ErrorNote({ error }: { error: string | undefined }) {
  return error ? (
    <p class="error" role="alert">
      {error}
    </p>
  ) : null;
}

/** A loading state that does not jump the layout. */
export function Loading({ when, children = 'Loading…' }: { when: boolean; children?: ComponentChildren }) {
  return when ? (
    <p class="muted" aria-live="polite">
      {children}
    </p>
  ) : null;
}

/** A determinate progress bar with its text (export, import). */
export function Progress({ label, value, max }: { label: string; value: number; max: number | undefined }) {
  return (
    <div class="progress">
      <progress value={max ? value : undefined} max={max ?? undefined} aria-label={label} />
      <span>{label}</span>
    </div>
  );
}

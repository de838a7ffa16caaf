import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';

interface Props {
  title: string;
  open: boolean;
  onClose(): void;
  children: ComponentChildren;
  /** false: Escape does not close it (the key prompt: the page cannot work without an answer). */
  dismissible?: boolean;
}

/** A modal dialog (the platform's <dialog>: focus is trapped and Escape closes it). */
export function Dialog({ title, open, onClose, children, dismissible = true }: Props) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    <dialog
      ref={ref}
      aria-label={title}
      onClose={onClose}
      onCancel={(event) => {
        if (!dismissible) event.preventDefault();
      }}
    >
      <h2>{title}</h2>
      {open && children}
    </dialog>
  );
}

interface ConfirmProps {
  title: string;
  open: boolean;
  /** What will happen, in words. */
  children: ComponentChildren;
  confirmLabel: string;
  /** The confirming button waits for this (a typed name, say). */
  ready?: boolean;
  onConfirm(): void;
  onCancel(): void;
}

/** Are you sure? For what cannot be undone. */
export function Confirm({ title, open, children, confirmLabel, ready = true, onConfirm, onCancel }: ConfirmProps) {
  return (
    <Dialog title={title} open={open} onClose={onCancel}>
      <div class="stack">{children}</div>
      <div class="row end">
        <button type="button" onClick={onCancel} autofocus>
          Cancel
        </button>
        <button type="button" class="danger" onClick={onConfirm} disabled={!ready}>
          {confirmLabel}
        </button>
      </div>
    </Dialog>
  );
}

import { useState } from 'preact/hooks';
import { Dialog } from './Dialog';

/** Asks for the API key once; the page keeps it for this tab. */
export function KeyPrompt({ open, rejected, onKey }: { open: boolean; rejected: boolean; onKey(key: string): void }) {
  const [key, setKey] = useState('');
  return (
    <Dialog title="API key" open={open} onClose={() => undefined} dismissible={false}>
      <form
        class="stack"
        onSubmit={(event) => {
          event.preventDefault();
          if (key.trim()) onKey(key.trim());
        }}
      >
        <p>
          This memd asks for an API key (the admin key, or a key of the workspaces you may see). It is kept for this tab
          only.
        </p>
        {rejected && (
          <p class="error" role="alert">
            The server did not accept the key.
          </p>
        )}
        <label>
          Key
          <input
            type="password"
            name="api-key"
            autocomplete="off"
            value={key}
            onInput={(e) => setKey(e.currentTarget.value)}
            autofocus
            required
          />
        </label>
        <div class="row end">
          <button type="submit" class="primary">
            Use this key
          </button>
        </div>
      </form>
    </Dialog>
  );
}

import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { describeError, isUnauthorized, useApi } from './api';

export interface Loaded<T> {
  data: T | undefined;
  error: string | undefined;
  loading: boolean;
  reload(): void;
}

/**
 * Data from the API for a screen: loaded again when `deps` change (the previous request is aborted), with its
 * error in words. A refused key opens the key prompt.
 */
export function useLoad<T>(load: (signal: AbortSignal) => Promise<T>, deps: readonly unknown[]): Loaded<T> {
  const api = useApi();
  const [state, setState] = useState<{ data?: T; error?: string; loading: boolean }>({ loading: true });
  const [round, setRound] = useState(0);
  useEffect(() => {
    const controller = new AbortController();
    setState((previous) => ({ data: previous.data, loading: true }));
    load(controller.signal).then(
      (data) => !controller.signal.aborted && setState({ data, loading: false }),
      (error: unknown) => {
        if (controller.signal.aborted) return;
        if (isUnauthorized(error)) api.unauthorized();
        setState({ error: describeError(error), loading: false });
      },
    );
    return () => controller.abort();
  }, [...deps, round]);
  const reload = useCallback(() => setRound((n) => n + 1), []);
  return { data: state.data, error: state.error, loading: state.loading, reload };
}

export interface Action {
  busy: boolean;
  error: string | undefined;
  /** Runs `work`; its failure is shown, not thrown. Answers `{value}` when it succeeded, undefined when it failed. */
  run<T>(work: () => Promise<T>): Promise<{ value: T } | undefined>;
  clear(): void;
}

/** A user's action against the API (a button): busy while it runs, its error in words. */
export function useAction(): Action {
  const api = useApi();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const mounted = useRef(true);
  useEffect(
    () => () => {
      mounted.current = false;
    },
    [],
  );
  const run = useCallback(
    async <T>(work: () => Promise<T>): Promise<{ value: T } | undefined> => {
      setBusy(true);
      setError(undefined);
      try {
        return { value: await work() };
      } catch (failure) {
        if (isUnauthorized(failure)) api.unauthorized();
        if (mounted.current) setError(describeError(failure));
        return undefined;
      } finally {
        if (mounted.current) setBusy(false);
      }
    },
    [api],
  );
  return { busy, error, run, clear: () => setError(undefined) };
}

/** The current time, ticking every `ms` (a live TTL). */
export function useNow(ms = 1000): number {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), ms);
    return () => clearInterval(timer);
  }, [ms]);
  return now;
}

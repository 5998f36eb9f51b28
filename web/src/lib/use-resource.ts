import { useCallback, useEffect, useRef, useState } from 'react';

// The one way a screen loads data: a hook around one async call (usually `session.api.call`),
// re-run when `key` changes or on `reload()`. Chosen over route loaders because every call needs
// the identity SDK's token, which lives in the React tree (docs/decisions/0025-app-shell.md). The
// previous data stays while a reload runs, so nothing jumps; a late answer of an older load never
// overwrites a newer one.

export type Resource<T> =
  | { state: 'loading'; data: undefined; error: undefined; reload: () => Promise<void> }
  | { state: 'ready'; data: T; error: undefined; reload: () => Promise<void> }
  | { state: 'failed'; data: T | undefined; error: unknown; reload: () => Promise<void> };

export function useResource<T>(key: string, load: (signal: AbortSignal) => Promise<T>): Resource<T> {
  const [result, setResult] = useState<{ data?: T; error?: unknown; state: Resource<T>['state'] }>({
    state: 'loading',
  });
  const latestLoad = useRef(load);
  latestLoad.current = load;
  const generation = useRef(0);
  const controller = useRef<AbortController | undefined>(undefined);

  const run = useCallback(async () => {
    const mine = ++generation.current;
    controller.current?.abort();
    const abort = new AbortController();
    controller.current = abort;
    try {
      const data = await latestLoad.current(abort.signal);
      if (mine === generation.current) setResult({ state: 'ready', data });
    } catch (error) {
      if (mine === generation.current && !abort.signal.aborted) {
        setResult((current) => ({ state: 'failed', data: current.data, error }));
      }
    }
  }, []);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` names what is loaded
  useEffect(() => {
    run();
    return () => controller.current?.abort();
  }, [key, run]);

  return { ...result, reload: run } as Resource<T>;
}

import { useCallback, useRef, useState } from 'react';
import type { ApiClient } from '#web/lib/api-client.ts';
import { useSession } from '#web/lib/session.ts';

// What a card's disclosure loads when a reviewer opens it (the audit trail, Persona's checks):
// fetched at each opening (another reviewer may have acted since), an earlier answer still on
// its way dropped, and a failure offered again. The queue itself stays one request.

export type OnOpen<T> =
  | { state: 'idle' }
  | { state: 'loading' }
  | { state: 'failed' }
  | { state: 'ready'; value: T };

export function useOnOpen<T>(fetcher: (api: ApiClient, signal: AbortSignal) => Promise<T>): {
  view: OnOpen<T>;
  load: () => void;
} {
  const { api } = useSession();
  const [view, setView] = useState<OnOpen<T>>({ state: 'idle' });
  const loading = useRef<AbortController | null>(null);
  const load = useCallback(() => {
    loading.current?.abort();
    const controller = new AbortController();
    loading.current = controller;
    setView({ state: 'loading' });
    fetcher(api, controller.signal).then(
      (value) => !controller.signal.aborted && setView({ state: 'ready', value }),
      () => !controller.signal.aborted && setView({ state: 'failed' }),
    );
  }, [api, fetcher]);
  return { view, load };
}

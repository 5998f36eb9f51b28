import { useEffect, useRef, useState } from 'react';
import { Link, useLocation } from 'react-router';
import type { DataDeletionAccepted } from '#contracts/data-deletion.ts';
import { problemUri } from '#contracts/problem.ts';
import { Seo } from '#web/components/seo.tsx';
import { paths } from '#web/config/paths.ts';
import { dataDeletionConfirm as copy } from '#web/content/data-deletion-confirm.ts';
import { confirmDataDeletion } from '#web/features/data-deletion/index.ts';
import { ApiError } from '#web/lib/api-client.ts';
import { formatCalendarDate } from '#web/lib/dates.ts';
import { useHydrated } from '#web/lib/hydrated.ts';

type State =
  | { step: 'ready' | 'sending' | 'invalid' | 'failed' }
  | { step: 'confirmed'; accepted: DataDeletionAccepted };

/** The token travels in the fragment (`#token=...`), which browsers never send to a server. */
function tokenOf(hash: string): string | undefined {
  return new URLSearchParams(hash.replace(/^#/, '')).get('token') ?? undefined;
}

// The emailed link opens this page; only the button POSTs the token. A GET that confirmed would
// let a mail scanner that prefetches links confirm a request nobody read.
export function Component() {
  const hydrated = useHydrated();
  const { hash } = useLocation();
  const token = tokenOf(hash);
  const [state, setState] = useState<State>({ step: 'ready' });
  const result = useRef<HTMLHeadingElement>(null);
  const problem = useRef<HTMLParagraphElement>(null);

  useEffect(() => {
    if (state.step === 'confirmed') result.current?.focus();
    if (state.step === 'invalid' || state.step === 'failed') problem.current?.focus();
  }, [state.step]);

  async function confirm() {
    if (!token) return;
    setState({ step: 'sending' });
    try {
      setState({ step: 'confirmed', accepted: await confirmDataDeletion({ token }) });
    } catch (error) {
      const invalid =
        error instanceof ApiError &&
        (error.is(problemUri('deletion-confirmation-invalid')) || error.is(problemUri('validation')));
      setState({ step: invalid ? 'invalid' : 'failed' });
    }
  }

  // Until hydration the fragment is unknown (the page is prerendered): the button waits, disabled.
  const missing = hydrated && !token;
  const canConfirm = hydrated && token !== undefined && (state.step === 'ready' || state.step === 'failed');

  return (
    <>
      <Seo
        title={copy.meta.title}
        description={copy.meta.description}
        path={paths.dataDeletionConfirm.path}
        noindex
      />
      <div className="container page-body deletion-confirm-page">
        <h1>{copy.title}</h1>
        {state.step !== 'confirmed' && (
          <>
            <p className="lead">{copy.lead}</p>
            <p>{copy.body}</p>
          </>
        )}
        {missing && <p role="alert">{copy.missing}</p>}
        {state.step === 'invalid' && (
          <p ref={problem} tabIndex={-1} role="alert">
            {copy.invalid} <Link to={paths.dataDeletion.getHref()}>{copy.dataDeletionLink}</Link>
          </p>
        )}
        {state.step === 'failed' && (
          <p ref={problem} tabIndex={-1} role="alert">
            {copy.failed}
          </p>
        )}
        {!missing && state.step !== 'confirmed' && state.step !== 'invalid' && (
          <div className="actions">
            <button type="button" className="button" disabled={!canConfirm} onClick={confirm}>
              {state.step === 'sending' ? copy.confirming : copy.confirm}
            </button>
          </div>
        )}
        {/* A live region from the start, so the result is announced when it appears. */}
        <div role="status" className="receipt-region">
          {state.step === 'confirmed' && (
            <div className="receipt">
              <h2 ref={result} tabIndex={-1}>
                {copy.confirmedTitle}
              </h2>
              <dl className="receipt__details">
                <dt>{copy.requestIdLabel}</dt>
                <dd>
                  <code>{state.accepted.requestId}</code>
                </dd>
                <dt>{copy.dueByLabel}</dt>
                <dd>
                  <time dateTime={state.accepted.dueBy}>{formatCalendarDate(state.accepted.dueBy)}</time>
                </dd>
              </dl>
              <p>{copy.confirmedBody}</p>
            </div>
          )}
        </div>
      </div>
    </>
  );
}

import { useCallback, useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import {
  type VerificationItem,
  type VerificationStatusFilter,
  verificationDecisionRequest,
  verificationListLimit,
  verificationStatusFilter,
} from '#contracts/admin-verifications.ts';
import { AppTitle } from '#web/components/app-title.tsx';
import { ScreenHeading } from '#web/components/screen-heading.tsx';
import { useToast } from '#web/components/toast.tsx';
import { adminCopy as copy } from '#web/content/admin.ts';
import { postDecision } from '#web/features/admin/api/verifications.ts';
import type { Decision } from '#web/features/admin/components/decision-form.tsx';
import { StatusFilter } from '#web/features/admin/components/status-filter.tsx';
import { subjectOf, VerificationCard } from '#web/features/admin/components/verification-card.tsx';
import { formatClock } from '#web/features/admin/lib/format-time.ts';
import { useVerificationQueue } from '#web/features/admin/lib/use-verification-queue.ts';
import { ApiError } from '#web/lib/api-client.ts';
import { useSession } from '#web/lib/session.ts';
import '#web/styles/admin.css';

// `/admin/verification`: the admins' review queue (the shell shows others the 403 page). The
// filter lives in the URL; the list re-fetches after each decision, on Refresh, and every 30 s
// while the tab is visible, unless a reason is being written. Decisions take a reason, checked
// with the contract the handler enforces before anything is sent.

/** Where focus goes once the list has re-rendered. */
type FocusTarget = { kind: 'item' | 'reason'; userId: string } | { kind: 'list' };

function useFilter(): VerificationStatusFilter {
  const [params] = useSearchParams();
  const parsed = verificationStatusFilter.safeParse(params.get('status') ?? 'pending');
  return parsed.success ? parsed.data : 'pending';
}

export function Component() {
  const { api, me } = useSession();
  const toast = useToast();
  const filter = useFilter();
  const [reasons, setReasons] = useState<Record<string, string>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [sending, setSending] = useState<{ userId: string; decision: Decision } | null>(null);
  const [refreshing, setRefreshing] = useState(false);
  // The poll waits while a decision is sent or a reason is being written for a listed item.
  const listed = useRef<readonly VerificationItem[]>([]);
  const { view, reload, recordDecision } = useVerificationQueue(api, filter, {
    paused: () =>
      sending !== null || listed.current.some((item) => (reasons[item.userId] ?? '').trim() !== ''),
  });
  listed.current = view.state === 'ready' ? view.items : [];

  const listHeading = useRef<HTMLHeadingElement>(null);
  const headings = useRef(new Map<string, HTMLHeadingElement>());
  const reasonFields = useRef(new Map<string, HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement>());
  const [focusTarget, setFocusTarget] = useState<FocusTarget | null>(null);
  useEffect(() => {
    if (!focusTarget) return;
    const element =
      focusTarget.kind === 'list'
        ? listHeading.current
        : (focusTarget.kind === 'item' ? headings : reasonFields).current.get(focusTarget.userId);
    (element ?? listHeading.current)?.focus();
    setFocusTarget(null);
  }, [focusTarget]);

  const setReason = useCallback((userId: string, reason: string) => {
    setReasons((current) => ({ ...current, [userId]: reason }));
  }, []);
  const setError = (userId: string, message: string | undefined) =>
    setErrors((current) => {
      const { [userId]: _previous, ...rest } = current;
      return message ? { ...rest, [userId]: message } : rest;
    });

  async function refresh() {
    setRefreshing(true);
    try {
      await reload();
    } finally {
      setRefreshing(false);
    }
  }

  async function decide(item: VerificationItem, decision: Decision, listed: readonly VerificationItem[]) {
    if (sending) return;
    const draft = reasons[item.userId] ?? '';
    // An empty field is a missing reason: the contract then says "Please give a reason".
    const parsed = verificationDecisionRequest.safeParse({
      decision,
      reason: draft.trim() === '' ? undefined : draft,
    });
    if (!parsed.success) {
      const issue = parsed.error.issues.find((entry) => entry.path[0] === 'reason') ?? parsed.error.issues[0];
      setError(item.userId, issue?.message ?? copy.failed.body);
      setFocusTarget({ kind: 'reason', userId: item.userId });
      return;
    }
    setError(item.userId, undefined);
    setSending({ userId: item.userId, decision });
    const subject = subjectOf(item);
    try {
      const result = await postDecision(api, item.userId, parsed.data);
      const status = result.kycStatus === 'rejected' ? 'rejected' : 'approved';
      recordDecision(item.userId, result.kycStatus);
      setReason(item.userId, '');
      toast.success(copy.decided.body(subject, status), { title: copy.decided[status] });
      // A reviewer works down the list: go on to the next item, or to the list when none is left.
      const index = listed.findIndex((entry) => entry.userId === item.userId);
      const next = listed[index + 1];
      setFocusTarget(next ? { kind: 'item', userId: next.userId } : { kind: 'list' });
      reload();
    } catch (error) {
      handleFailure(item, error);
    } finally {
      setSending(null);
    }
  }

  function handleFailure(item: VerificationItem, error: unknown) {
    if (!(error instanceof ApiError)) {
      toast.error(copy.failed.body, { title: copy.failed.title });
      return;
    }
    const reasonError = error.fieldError('reason');
    if (error.status === 400 && reasonError) {
      setError(item.userId, reasonError);
      setFocusTarget({ kind: 'reason', userId: item.userId });
    } else if (error.status === 409) {
      toast.error(copy.conflict.body, { title: copy.conflict.title });
      reload();
    } else if (error.status === 404) {
      toast.error(copy.gone.body, { title: copy.gone.title });
      reload();
    } else if (error.status === 429) {
      toast.error(copy.rateLimited(error.retryAfterSeconds ?? 60), { title: copy.failed.title });
    } else if (error.status !== 401) {
      // A 401 already ended the session (the shell says so).
      toast.error(copy.failed.body, { title: copy.failed.title });
    }
  }

  return (
    <section className="container app-screen admin-review">
      <AppTitle title={copy.title} />
      <ScreenHeading>{copy.title}</ScreenHeading>
      <p className="admin-review__intro">{copy.intro}</p>
      <div className="admin-review__toolbar">
        <StatusFilter current={filter} />
        <div className="admin-review__refresh">
          <button
            type="button"
            className="button button--secondary"
            onClick={refresh}
            disabled={refreshing}
            aria-busy={refreshing || undefined}
          >
            {refreshing ? copy.refreshing : copy.refresh}
          </button>
          <p className="admin-review__updated">
            {view.state === 'ready' && (
              <>
                {copy.updated}{' '}
                <time dateTime={view.loadedAt.toISOString()}>{formatClock(view.loadedAt)}</time>
              </>
            )}
          </p>
        </div>
      </div>

      <div className="admin-review__list-header">
        <h2 ref={listHeading} tabIndex={-1} className="admin-review__list-title">
          {copy.listHeading[filter]}
        </h2>
        <p className="admin-review__count">{view.state === 'ready' && copy.count(view.items.length)}</p>
      </div>

      <div className="admin-review__body">
        {view.state === 'loading' && (
          <p className="admin-review__state" role="status">
            {copy.loading}
          </p>
        )}
        {view.state === 'failed' && (
          <div className="admin-review__state" role="alert">
            <p className="admin-review__state-title">{copy.loadFailed.title}</p>
            <p>{copy.loadFailed.body}</p>
            <button type="button" className="button" onClick={refresh} disabled={refreshing}>
              {copy.loadFailed.retry}
            </button>
          </div>
        )}
        {view.state === 'ready' && (
          <>
            {view.stale && (
              <p className="admin-review__notice" role="alert">
                {copy.refreshFailed}
              </p>
            )}
            {view.truncated && (
              <p className="admin-review__notice">{copy.truncated(verificationListLimit)}</p>
            )}
            {view.items.length === 0 ? (
              <p className="admin-review__state">{copy.empty[filter]}</p>
            ) : (
              <ul className="review-list">
                {view.items.map((item) => (
                  <li key={item.userId}>
                    <VerificationCard
                      item={item}
                      currentAdminId={me.userId}
                      reason={reasons[item.userId] ?? ''}
                      reasonError={errors[item.userId]}
                      sending={sending?.userId === item.userId ? sending.decision : null}
                      decisionsDisabled={sending !== null}
                      onReasonChange={(reason) => setReason(item.userId, reason)}
                      onDecide={(decision) => decide(item, decision, view.items)}
                      headingRef={(element) => {
                        if (element) headings.current.set(item.userId, element);
                        else headings.current.delete(item.userId);
                      }}
                      reasonRef={(element) => {
                        if (element) reasonFields.current.set(item.userId, element);
                        else reasonFields.current.delete(item.userId);
                      }}
                    />
                  </li>
                ))}
              </ul>
            )}
          </>
        )}
      </div>
    </section>
  );
}

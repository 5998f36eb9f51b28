import { useCallback, useEffect, useRef, useState } from 'react';
import {
  newAttemptRequest,
  type VerificationItem,
  verificationDecisionRequest,
} from '#contracts/admin-verifications.ts';
import { problemTypes } from '#contracts/problem.ts';
import { AppTitle } from '#web/components/app-title.tsx';
import { ScreenHeading } from '#web/components/screen-heading.tsx';
import { useToast } from '#web/components/toast.tsx';
import { adminCopy as copy } from '#web/content/admin.ts';
import { postDecision, postNewAttempt } from '#web/features/admin/api/verifications.ts';
import type { Decision, DecisionDraft } from '#web/features/admin/components/decision-form.tsx';
import { QueuePages, QueueSearch, QueueSort } from '#web/features/admin/components/queue-controls.tsx';
import { StatusFilter } from '#web/features/admin/components/status-filter.tsx';
import {
  type ItemField,
  subjectOf,
  VerificationCard,
} from '#web/features/admin/components/verification-card.tsx';
import { useQueueQuery } from '#web/features/admin/lib/queue-query.ts';
import { useVerificationQueue } from '#web/features/admin/lib/use-verification-queue.ts';
import { ApiError } from '#web/lib/api-client.ts';
import { formatTime } from '#web/lib/dates.ts';
import { useSession } from '#web/lib/session.ts';
import '#web/styles/admin.css';

// `/admin/verification`: the admins' review queue (the shell shows others the 403 page). The
// filter, the search, the order and the page live in the URL (ADR 0082); decided cards stay
// collapsed until opened. The list re-fetches after each decision, on Refresh, and every 30 s
// while the tab is visible, unless a reason is being written. Decisions take a reason code (what
// the user is told) and an optional internal note, checked with the contract the handler enforces
// before anything is sent; a rejected item can be given a new attempt, with a reason.

/** Where focus goes once the list has re-rendered. */
type FocusTarget =
  | { kind: 'item'; userId: string }
  | { kind: 'field'; userId: string; field: ItemField }
  | { kind: 'list' };

const emptyDraft: DecisionDraft = { reasonCode: '', reason: '' };
type ItemErrors = Partial<Record<ItemField, string>>;

export function Component() {
  const { api, me } = useSession();
  const toast = useToast();
  const query = useQueueQuery();
  const filter = query.status;
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set());
  const toggleExpanded = useCallback((userId: string) => {
    setExpanded((current) => {
      const next = new Set(current);
      if (!next.delete(userId)) next.add(userId);
      return next;
    });
  }, []);
  const [drafts, setDrafts] = useState<Record<string, DecisionDraft>>({});
  const [attemptReasons, setAttemptReasons] = useState<Record<string, string>>({});
  const [errors, setErrors] = useState<Record<string, ItemErrors>>({});
  const [sending, setSending] = useState<{ userId: string; action: Decision | 'new_attempt' } | null>(null);
  const [refreshing, setRefreshing] = useState(false);
  // The poll waits while something is sent or being written for a listed item.
  const listed = useRef<readonly VerificationItem[]>([]);
  const writing = (userId: string) => {
    const draft = drafts[userId] ?? emptyDraft;
    return (
      draft.reasonCode !== '' || draft.reason.trim() !== '' || (attemptReasons[userId] ?? '').trim() !== ''
    );
  };
  const { view, reload, recordDecision } = useVerificationQueue(api, query, {
    paused: () => sending !== null || listed.current.some((item) => writing(item.userId)),
  });
  listed.current = view.state === 'ready' ? view.items : [];

  const listHeading = useRef<HTMLHeadingElement>(null);
  const headings = useRef(new Map<string, HTMLHeadingElement>());
  const fields = useRef(new Map<string, HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement>());
  const [focusTarget, setFocusTarget] = useState<FocusTarget | null>(null);
  useEffect(() => {
    if (!focusTarget) return;
    const element =
      focusTarget.kind === 'list'
        ? listHeading.current
        : focusTarget.kind === 'item'
          ? headings.current.get(focusTarget.userId)
          : fields.current.get(`${focusTarget.userId}\n${focusTarget.field}`);
    (element ?? listHeading.current)?.focus();
    setFocusTarget(null);
  }, [focusTarget]);

  const setDraft = useCallback((userId: string, draft: DecisionDraft) => {
    setDrafts((current) => ({ ...current, [userId]: draft }));
  }, []);
  const setAttemptReason = useCallback((userId: string, reason: string) => {
    setAttemptReasons((current) => ({ ...current, [userId]: reason }));
  }, []);
  const setItemErrors = (userId: string, itemErrors: ItemErrors) =>
    setErrors((current) => {
      const { [userId]: _previous, ...rest } = current;
      return Object.keys(itemErrors).length > 0 ? { ...rest, [userId]: itemErrors } : rest;
    });
  /** The contract's field errors for an item, focus on the first. */
  function refuse(
    userId: string,
    issues: readonly { path: readonly PropertyKey[]; message: string }[],
    map: (field: string) => ItemField | undefined,
  ) {
    const itemErrors: ItemErrors = {};
    for (const issue of issues) {
      const field = map(String(issue.path[0] ?? ''));
      if (field && !itemErrors[field]) itemErrors[field] = issue.message;
    }
    const first = (Object.keys(itemErrors) as ItemField[])[0];
    if (!first) {
      toast.error(copy.failed.body, { title: copy.failed.title });
      return;
    }
    setItemErrors(userId, itemErrors);
    setFocusTarget({ kind: 'field', userId, field: first });
  }

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
    const draft = drafts[item.userId] ?? emptyDraft;
    // An empty field is a missing value: the contract then names what is missing.
    const parsed = verificationDecisionRequest.safeParse({
      decision,
      reasonCode: draft.reasonCode === '' ? undefined : draft.reasonCode,
      reason: draft.reason.trim() === '' ? undefined : draft.reason,
    });
    if (!parsed.success) {
      refuse(item.userId, parsed.error.issues, (field) =>
        field === 'reasonCode' || field === 'reason' ? field : undefined,
      );
      return;
    }
    setItemErrors(item.userId, {});
    setSending({ userId: item.userId, action: decision });
    const subject = subjectOf(item);
    try {
      const result = await postDecision(api, item.userId, parsed.data);
      setDraft(item.userId, emptyDraft);
      if (result.outcome === 'proposed') {
        // Four-eyes (ADR 0080): nothing changed for the person yet; the item stays in the queue.
        toast.success(copy.proposal.doneBody(subject, decision), { title: copy.proposal.done });
        setFocusTarget({ kind: 'item', userId: item.userId });
        reload();
        return;
      }
      const status = result.kycStatus === 'rejected' ? 'rejected' : 'approved';
      recordDecision(item.userId, result.kycStatus);
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

  async function allowNewAttempt(item: VerificationItem) {
    if (sending) return;
    const draft = attemptReasons[item.userId] ?? '';
    const parsed = newAttemptRequest.safeParse({ reason: draft.trim() === '' ? undefined : draft });
    if (!parsed.success) {
      refuse(item.userId, parsed.error.issues, (field) =>
        field === 'reason' ? 'newAttemptReason' : undefined,
      );
      return;
    }
    setItemErrors(item.userId, {});
    setSending({ userId: item.userId, action: 'new_attempt' });
    try {
      await postNewAttempt(api, item.userId, parsed.data);
      setAttemptReason(item.userId, '');
      toast.success(copy.newAttempt.doneBody(subjectOf(item)), { title: copy.newAttempt.done });
      setFocusTarget({ kind: 'item', userId: item.userId });
      reload();
    } catch (error) {
      handleFailure(item, error, 'newAttemptReason');
    } finally {
      setSending(null);
    }
  }

  function handleFailure(item: VerificationItem, error: unknown, reasonField: ItemField = 'reason') {
    if (!(error instanceof ApiError)) {
      toast.error(copy.failed.body, { title: copy.failed.title });
      return;
    }
    const reasonError = error.fieldError('reason');
    const codeError = reasonField === 'reason' ? error.fieldError('reasonCode') : undefined;
    if (error.status === 400 && (reasonError || codeError)) {
      setItemErrors(item.userId, {
        ...(codeError ? { reasonCode: codeError } : {}),
        ...(reasonError ? { [reasonField]: reasonError } : {}),
      });
      setFocusTarget({ kind: 'field', userId: item.userId, field: codeError ? 'reasonCode' : reasonField });
    } else if (error.is(problemTypes.secondReviewerRequired)) {
      toast.error(copy.proposal.sameReviewerBody, { title: copy.proposal.sameReviewer });
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
        <StatusFilter query={query} />
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
                {copy.updated} <time dateTime={view.loadedAt.toISOString()}>{formatTime(view.loadedAt)}</time>
              </>
            )}
          </p>
        </div>
      </div>

      <div className="admin-review__find">
        <QueueSearch query={query} />
        <QueueSort query={query} />
      </div>

      <div className="admin-review__list-header">
        <h2 ref={listHeading} tabIndex={-1} className="admin-review__list-title">
          {query.q ? copy.matching(copy.listHeading[filter], query.q) : copy.listHeading[filter]}
        </h2>
        <p className="admin-review__count">
          {view.state === 'ready' &&
            (query.cursor || view.nextCursor
              ? copy.countOnPage(view.items.length)
              : copy.count(view.items.length))}
        </p>
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
            {view.truncated && <p className="admin-review__notice">{copy.truncated}</p>}
            {view.items.length === 0 ? (
              <p className="admin-review__state">{query.q ? copy.noMatch(query.q) : copy.empty[filter]}</p>
            ) : (
              <ul className="review-list">
                {view.items.map((item) => (
                  <li key={item.userId}>
                    <VerificationCard
                      item={item}
                      currentAdminId={me.userId}
                      draft={drafts[item.userId] ?? emptyDraft}
                      errors={errors[item.userId] ?? {}}
                      newAttemptReason={attemptReasons[item.userId] ?? ''}
                      sending={sending?.userId === item.userId ? sending.action : null}
                      decisionsDisabled={sending !== null}
                      onDraftChange={(draft) => setDraft(item.userId, draft)}
                      onDecide={(decision) => decide(item, decision, view.items)}
                      onNewAttemptReasonChange={(reason) => setAttemptReason(item.userId, reason)}
                      onAllowNewAttempt={() => allowNewAttempt(item)}
                      expanded={expanded.has(item.userId)}
                      onToggleExpanded={() => toggleExpanded(item.userId)}
                      headingRef={(element) => {
                        if (element) headings.current.set(item.userId, element);
                        else headings.current.delete(item.userId);
                      }}
                      fieldRef={(field, element) => {
                        const key = `${item.userId}\n${field}`;
                        if (element) fields.current.set(key, element);
                        else fields.current.delete(key);
                      }}
                    />
                  </li>
                ))}
              </ul>
            )}
            <QueuePages query={query} nextCursor={view.nextCursor} />
          </>
        )}
      </div>
    </section>
  );
}

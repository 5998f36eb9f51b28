import { useId } from 'react';
import type { VerificationItem } from '#contracts/admin-verifications.ts';
import { maxVerificationAttempts } from '#contracts/kyc-reasons.ts';
import { personaInquiryDashboardUrl } from '#contracts/verification-evidence.ts';
import { adminCopy } from '#web/content/admin.ts';
import { reasonLabel } from '#web/content/decision-reasons.ts';
import { AuditTrail } from '#web/features/admin/components/audit-trail.tsx';
import {
  type Decision,
  type DecisionDraft,
  type DecisionErrors,
  DecisionForm,
  NewAttemptForm,
} from '#web/features/admin/components/decision-form.tsx';
import { FlaggedChecks, PersonaChecks } from '#web/features/admin/components/persona-checks.tsx';
import { StatusBadge } from '#web/features/admin/components/status-badge.tsx';
import { VerificationHistory } from '#web/features/admin/components/verification-history.tsx';
import { formatDateTime } from '#web/lib/dates.ts';
import { segmentOf } from '#web/lib/journey.ts';

const facts = adminCopy.facts;

/** What an item is called: its organization, else the person, else the account. */
export function subjectOf(item: VerificationItem): string {
  return item.organizationName ?? item.name ?? item.email ?? item.userId;
}

/**
 * What an item's decision form is called: unique on the page, because two people of one
 * organization can wait in the queue together, and a form is a landmark that must be told apart
 * from the others (by screen-reader users jumping between them, and by axe's landmark-unique).
 */
export function decisionSubjectOf(item: VerificationItem): string {
  const subject = subjectOf(item);
  const account = item.email ?? item.userId;
  return subject === account ? subject : `${subject} (${account})`;
}

/** Only web addresses become links (the registration contract allows nothing else, but be sure). */
const isWebAddress = (url: string) => /^https?:\/\//i.test(url);

/** The fields of an item's forms, for focus after a refused submission. */
export type ItemField = keyof DecisionDraft | 'newAttemptReason';

interface VerificationCardProps {
  item: VerificationItem;
  currentAdminId: string;
  draft: DecisionDraft;
  errors: DecisionErrors & { newAttemptReason?: string };
  newAttemptReason: string;
  sending: Decision | 'new_attempt' | null;
  decisionsDisabled: boolean;
  onDraftChange: (draft: DecisionDraft) => void;
  onDecide: (decision: Decision) => void;
  onNewAttemptReasonChange: (reason: string) => void;
  onAllowNewAttempt: () => void;
  /** A decided card shows its summary only until the reviewer opens it (ADR 0082). */
  expanded: boolean;
  onToggleExpanded: () => void;
  headingRef: (element: HTMLHeadingElement | null) => void;
  fieldRef: (
    field: ItemField,
    element: HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement | null,
  ) => void;
}

/** What a reviewer may do with an item: nothing on their own or an unsubmitted one (the API refuses both). */
function actionsOf(item: VerificationItem, currentAdminId: string) {
  if (item.userId === currentAdminId) return 'own' as const;
  if (!item.submitted) return 'not-submitted' as const;
  return 'decide' as const;
}

/**
 * Decided: approved or rejected with no proposal waiting. Such a card is collapsed until opened:
 * the queue is for what still needs a person, and a reversal should be a deliberate step.
 */
export const isDecided = (item: VerificationItem) =>
  (item.status === 'approved' || item.status === 'rejected') && item.proposal === null;

function decidedByOf(item: VerificationItem, currentAdminId: string): string {
  if (item.decidedBy === 'persona') return adminCopy.history.persona;
  if (item.decidedBy === 'user') return adminCopy.history.user;
  const last = item.history.findLast((entry) => entry.decidedBy === 'admin' && entry.status === item.status);
  if (last?.adminId === currentAdminId) return adminCopy.history.you;
  return last?.adminId ? adminCopy.history.admin(last.adminId) : adminCopy.history.admin('');
}

export function VerificationCard(props: VerificationCardProps) {
  const { item } = props;
  const headingId = useId();
  const bodyId = useId();
  const subject = subjectOf(item);
  const decided = isDecided(item);
  const collapsed = decided && !props.expanded;
  return (
    <article className="app-card review-item" aria-labelledby={headingId}>
      <header className="review-item__header">
        <h3 id={headingId} ref={props.headingRef} tabIndex={-1} className="review-item__title">
          {subject}
        </h3>
        <StatusBadge status={item.status} />
      </header>
      <FlaggedChecks checks={item.flaggedChecks} />
      {decided && (
        <div className="review-item__summary">
          <p>
            {item.reasonCode && (
              <>
                {facts.reason}: {reasonLabel(item.reasonCode)}
                <span aria-hidden="true"> · </span>
              </>
            )}
            {adminCopy.details.decided(
              decidedByOf(item, props.currentAdminId),
              formatDateTime(item.updatedAt),
            )}
            {item.email && (
              <>
                <span aria-hidden="true"> · </span>
                {item.email}
              </>
            )}
          </p>
          <button
            type="button"
            className="button button--secondary review-item__toggle"
            aria-expanded={!collapsed}
            aria-controls={bodyId}
            onClick={props.onToggleExpanded}
          >
            {collapsed ? adminCopy.details.show : adminCopy.details.hide}
            <span className="visually-hidden">: {subject}</span>
          </button>
        </div>
      )}
      <div id={bodyId} className="review-item__body" hidden={collapsed}>
        {!collapsed && <CardBody {...props} />}
      </div>
    </article>
  );
}

function CardBody(props: VerificationCardProps) {
  const { item } = props;
  const registered = item.organizationName !== null;
  const actions = actionsOf(item, props.currentAdminId);
  return (
    <>
      {!registered && <p className="review-item__note">{adminCopy.noRegistration}</p>}
      <dl className="app-facts review-item__facts">
        <dt>{facts.segment}</dt>
        <dd>{adminCopy.segment[segmentOf(item.organizationType)]}</dd>
        <dt>{facts.organizationType}</dt>
        <dd>
          {item.organizationType ? adminCopy.organizationType[item.organizationType] : adminCopy.notOnFile}
        </dd>
        <dt>{facts.contact}</dt>
        <dd>
          {item.name || item.email ? (
            <>
              {item.name}
              {item.name && item.email && <br />}
              {item.email && <a href={`mailto:${item.email}`}>{item.email}</a>}
            </>
          ) : (
            adminCopy.notOnFile
          )}
        </dd>
        {item.organizationUrl && (
          <>
            <dt>{facts.website}</dt>
            <dd>
              {isWebAddress(item.organizationUrl) ? (
                <a href={item.organizationUrl} target="_blank" rel="noopener noreferrer">
                  {item.organizationUrl}
                </a>
              ) : (
                item.organizationUrl
              )}
            </dd>
          </>
        )}
        <dt>{facts.inquiry}</dt>
        <dd>
          {item.inquiryId ? (
            <>
              <code>{item.inquiryId}</code>{' '}
              <a href={personaInquiryDashboardUrl(item.inquiryId)} target="_blank" rel="noopener noreferrer">
                {adminCopy.persona.open}
                <span className="visually-hidden">{adminCopy.persona.details(item.inquiryId)}</span>
              </a>
            </>
          ) : (
            adminCopy.noInquiry
          )}
        </dd>
        {item.reasonCode && (
          <>
            <dt>{facts.reason}</dt>
            <dd>{reasonLabel(item.reasonCode)}</dd>
          </>
        )}
        {item.attempt > 0 && (
          <>
            <dt>{facts.attempt}</dt>
            <dd>{adminCopy.attempt(item.attempt, maxVerificationAttempts)}</dd>
          </>
        )}
        <dt>{facts.updated}</dt>
        <dd>
          <time dateTime={item.updatedAt}>{formatDateTime(item.updatedAt)}</time>
        </dd>
        <dt>{facts.userId}</dt>
        <dd>
          <code>{item.userId}</code>
        </dd>
      </dl>
      {item.proposal && (
        <div className="review-item__proposal" role="note" aria-label={adminCopy.proposal.label}>
          <p>
            <strong>{adminCopy.proposal.label}.</strong>{' '}
            {adminCopy.proposal.text(
              item.proposal.decision,
              item.proposal.adminId === props.currentAdminId
                ? adminCopy.history.you
                : adminCopy.history.admin(item.proposal.adminId),
            )}{' '}
            {adminCopy.history.reasonCode}: {reasonLabel(item.proposal.reasonCode)} (
            <time dateTime={item.proposal.at}>{formatDateTime(item.proposal.at)}</time>).
          </p>
          <p>
            {item.proposal.adminId === props.currentAdminId
              ? adminCopy.proposal.own
              : adminCopy.proposal.others}
          </p>
        </div>
      )}
      {item.inquiryId && <PersonaChecks userId={item.userId} />}
      <VerificationHistory entries={item.history} currentAdminId={props.currentAdminId} />
      <AuditTrail userId={item.userId} currentAdminId={props.currentAdminId} />
      {actions === 'own' && <p className="review-item__note">{adminCopy.ownVerification}</p>}
      {actions === 'not-submitted' && <p className="review-item__note">{adminCopy.notSubmitted}</p>}
      {actions === 'decide' && (
        <DecisionForm
          subject={decisionSubjectOf(item)}
          status={item.status}
          draft={props.draft}
          errors={props.errors}
          sending={props.sending === 'new_attempt' ? null : props.sending}
          disabled={props.decisionsDisabled}
          onDraftChange={props.onDraftChange}
          onDecide={props.onDecide}
          fieldRef={props.fieldRef}
        />
      )}
      {actions === 'decide' && item.status === 'rejected' && <NewAttempt {...props} />}
    </>
  );
}

function NewAttempt(props: VerificationCardProps) {
  const { item } = props;
  const text = adminCopy.newAttempt;
  if (item.newAttemptAllowed) return <p className="review-item__note">{text.allowed}</p>;
  if (item.attempt >= maxVerificationAttempts) {
    return <p className="review-item__note">{text.exhausted(maxVerificationAttempts)}</p>;
  }
  return (
    <NewAttemptForm
      subject={decisionSubjectOf(item)}
      reason={props.newAttemptReason}
      error={props.errors.newAttemptReason}
      sending={props.sending === 'new_attempt'}
      disabled={props.decisionsDisabled}
      onReasonChange={props.onNewAttemptReasonChange}
      onAllow={props.onAllowNewAttempt}
      reasonRef={(element) => props.fieldRef('newAttemptReason', element)}
    />
  );
}

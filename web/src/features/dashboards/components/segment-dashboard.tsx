import { useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import { type ServiceAction, type ServiceRequestView, serviceActions } from '#contracts/service-request.ts';
import { AppTitle } from '#web/components/app-title.tsx';
import { ScreenHeading } from '#web/components/screen-heading.tsx';
import { paths } from '#web/config/paths.ts';
import { dashboardsCopy, type SegmentDashboardCopy } from '#web/content/dashboards.ts';
import { listServiceRequests } from '#web/features/dashboards/api/service-requests.ts';
import { useSession } from '#web/lib/session.ts';
import { useResource } from '#web/lib/use-resource.ts';
import { ActionDialog } from './action-dialog.tsx';
import { RequestState } from './request-state.tsx';
import '#web/styles/dashboards.css';

const shared = dashboardsCopy.segment;
const dayAndTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

// The layout both segment dashboards share: heading, optional banner, capability cards, quick
// actions, and the organization's service requests with their state (ADR 0088). The shell renders
// it only for approved users of the matching segment.
export function SegmentDashboard({ copy }: { copy: SegmentDashboardCopy }) {
  const { api, me } = useSession();
  const organizationId = me.organizationId;
  const requests = useResource(`service-requests:${organizationId}`, (signal) =>
    organizationId ? listServiceRequests(api, organizationId, signal) : Promise.resolve([]),
  );
  // A request just sent shows at once, before the list's reload answers.
  const [sent, setSent] = useState<ServiceRequestView[]>([]);
  const [action, setAction] = useState<ServiceAction | null>(null);
  const opener = useRef<HTMLButtonElement | null>(null);
  const capabilitiesId = useId();
  const actionsId = useId();
  const requestsId = useId();

  const known = [...sent, ...(requests.data ?? [])].filter(
    (request, index, all) => all.findIndex((other) => other.action === request.action) === index,
  );

  function closeDialog() {
    setAction(null);
    opener.current?.focus();
  }

  return (
    <section className="container app-screen dashboard">
      <AppTitle title={copy.title} />
      <ScreenHeading>{copy.title}</ScreenHeading>
      <p className="dashboard__lead">{copy.intro}</p>
      {copy.banner && (
        <p className="dashboard-banner" role="note">
          <strong className="dashboard-banner__title">{copy.banner.title}</strong>
          <span>{copy.banner.body}</span>
        </p>
      )}

      <section aria-labelledby={capabilitiesId} className="dashboard__section">
        <h2 id={capabilitiesId}>{shared.capabilitiesHeading}</h2>
        <ul className="app-grid dashboard-cards">
          {copy.capabilities.map((capability) => (
            <li key={capability.name} className="app-card dashboard-card">
              <h3>{capability.name}</h3>
              <p>{capability.description}</p>
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby={actionsId} className="dashboard__section">
        <h2 id={actionsId}>{shared.quickActionsHeading}</h2>
        <div className="app-actions">
          {copy.quickActions.map((id) => (
            <button
              key={id}
              type="button"
              className="button button--secondary"
              aria-haspopup="dialog"
              onClick={(event) => {
                opener.current = event.currentTarget;
                setAction(id);
              }}
            >
              {serviceActions[id].title}
            </button>
          ))}
        </div>
      </section>
      <ActionDialog
        action={action}
        request={known.find((request) => request.action === action)}
        organizationId={organizationId}
        onSent={(request) => {
          setSent((current) => [request, ...current]);
          requests.reload();
        }}
        onClose={closeDialog}
      />

      {organizationId && (
        <section aria-labelledby={requestsId} className="dashboard__section">
          <h2 id={requestsId}>{shared.requests.heading}</h2>
          {requests.state === 'ready' && known.length === 0 && <p>{shared.requests.empty}</p>}
          {requests.state === 'failed' && <p role="alert">{shared.requests.failed}</p>}
          {known.length > 0 && (
            <ul className="service-requests">
              {known.map((request) => (
                <li key={request.requestId} className="app-card service-request">
                  <h3>{serviceActions[request.action].title}</h3>
                  <p className="service-request__when">
                    {shared.requests.requested}{' '}
                    <time dateTime={request.requestedAt}>
                      {dayAndTime.format(new Date(request.requestedAt))}
                    </time>
                  </p>
                  <RequestState request={request} />
                </li>
              ))}
            </ul>
          )}
        </section>
      )}

      <p className="dashboard-links">
        <Link to={paths.userAccount.getHref()}>{shared.links.account}</Link>
      </p>
    </section>
  );
}

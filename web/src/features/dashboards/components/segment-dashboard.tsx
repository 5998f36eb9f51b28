import { useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import { AppTitle } from '#web/components/app-title.tsx';
import { ScreenHeading } from '#web/components/screen-heading.tsx';
import { paths } from '#web/config/paths.ts';
import { dashboardsCopy, type SegmentDashboardCopy } from '#web/content/dashboards.ts';
import { ActionDialog } from './action-dialog.tsx';
import '#web/styles/dashboards.css';

const shared = dashboardsCopy.segment;

// The layout both segment dashboards share: heading, optional banner, capability cards and quick
// actions. The shell renders it only for approved users of the matching segment.
export function SegmentDashboard({ copy }: { copy: SegmentDashboardCopy }) {
  const [action, setAction] = useState<string | null>(null);
  const opener = useRef<HTMLButtonElement | null>(null);
  const capabilitiesId = useId();
  const actionsId = useId();

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
          {copy.quickActions.map((name) => (
            <button
              key={name}
              type="button"
              className="button button--secondary"
              aria-haspopup="dialog"
              onClick={(event) => {
                opener.current = event.currentTarget;
                setAction(name);
              }}
            >
              {name}
            </button>
          ))}
        </div>
      </section>
      <ActionDialog action={action} onClose={closeDialog} />

      <p className="dashboard-links">
        <Link to={paths.userAccount.getHref()}>{shared.links.account}</Link>
      </p>
    </section>
  );
}

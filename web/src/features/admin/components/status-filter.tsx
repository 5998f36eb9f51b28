import { Link } from 'react-router';
import { type VerificationStatusFilter, verificationStatusFilters } from '#contracts/admin-verifications.ts';
import { paths } from '#web/config/paths.ts';
import { adminCopy } from '#web/content/admin.ts';

// The filter is a set of links: it lives in the URL, so it survives a reload and back/forward
// moves between filters. Pending is the queue itself and keeps the bare path.
export function StatusFilter({ current }: { current: VerificationStatusFilter }) {
  return (
    <nav aria-label={adminCopy.filter.label} className="status-filter">
      <ul>
        {verificationStatusFilters.map((filter) => (
          <li key={filter}>
            <Link
              to={paths.adminVerification.getHref(filter === 'pending' ? undefined : filter)}
              aria-current={filter === current ? 'page' : undefined}
              className="status-filter__link"
            >
              {adminCopy.filter.options[filter]}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

import { Link } from 'react-router';
import { verificationStatusFilters } from '#contracts/admin-verifications.ts';
import { adminCopy } from '#web/content/admin.ts';
import { type QueueQuery, queueHref } from '#web/features/admin/lib/queue-query.ts';

// The filter is a set of links: it lives in the URL, so it survives a reload and back/forward
// moves between filters. Pending is the queue itself and keeps the bare path. A search and the
// order stay; the page starts again at the first.
export function StatusFilter({ query }: { query: QueueQuery }) {
  return (
    <nav aria-label={adminCopy.filter.label} className="status-filter">
      <ul>
        {verificationStatusFilters.map((filter) => (
          <li key={filter}>
            <Link
              to={queueHref({ ...query, status: filter, cursor: undefined })}
              aria-current={filter === query.status ? 'page' : undefined}
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

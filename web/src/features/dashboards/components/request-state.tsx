import type { ServiceRequestView } from '#contracts/service-request.ts';
import { dashboardsCopy } from '#web/content/dashboards.ts';

const copy = dashboardsCopy.segment.requests;
// The answer date is a UTC calendar day: shown as that day wherever the reader is.
const day = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeZone: 'UTC' });

function formatDay(date: string): string {
  const parsed = new Date(`${date}T00:00:00Z`);
  return Number.isNaN(parsed.getTime()) ? date : day.format(parsed);
}

/** A service request's state as the dashboard and its dialog say it: "Received — we answer ... by <date>". */
export function RequestState({ request }: { request: ServiceRequestView }) {
  return (
    <p className="request-state">
      <strong>{copy[request.status]}</strong> — {copy.answerWithin}{' '}
      <time dateTime={request.answerBy}>{formatDay(request.answerBy)}</time>.
    </p>
  );
}

// The dashboards' quick actions and the answer time operations promise (ADR 0088), without a
// schema: the web's copy reads them on every dashboard; ./service-request.ts holds the route rows.

/** The quick actions, by stable id: the web names them, the API stores and the email shows these. */
export const serviceActions = {
  'mission-analysis': { segment: 'commercial', title: 'Start New Mission Analysis' },
  'fleet-status': { segment: 'commercial', title: 'View Fleet Status' },
  'market-report': { segment: 'commercial', title: 'Generate Market Report' },
  'threat-scan': { segment: 'defense', title: 'Initialize Threat Scan' },
  'intel-reports': { segment: 'defense', title: 'Access Intel Reports' },
  'strategic-planning': { segment: 'defense', title: 'Strategic Planning' },
} as const;
export type ServiceAction = keyof typeof serviceActions;

/** Operations answer a request within this many business days (Monday to Friday, UTC). */
export const serviceRequestAnswerBusinessDays = 2;

/** The date `days` business days (Monday to Friday, UTC) after `from`, as YYYY-MM-DD. */
export function businessDaysAfter(from: Date, days: number): string {
  const date = new Date(Date.UTC(from.getUTCFullYear(), from.getUTCMonth(), from.getUTCDate()));
  let left = days;
  while (left > 0) {
    date.setUTCDate(date.getUTCDate() + 1);
    const day = date.getUTCDay();
    if (day !== 0 && day !== 6) left--;
  }
  return date.toISOString().slice(0, 10);
}

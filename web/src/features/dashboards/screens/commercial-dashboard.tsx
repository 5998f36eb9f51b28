import { dashboardsCopy } from '#web/content/dashboards.ts';
import { SegmentDashboard } from '#web/features/dashboards/components/segment-dashboard.tsx';

// `/commercial-dashboard`: commercial and academic organizations, once approved (the shell checks).
export function Component() {
  return <SegmentDashboard copy={dashboardsCopy.commercial} />;
}

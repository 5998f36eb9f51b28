import { dashboardsCopy } from '#web/content/dashboards.ts';
import { SegmentDashboard } from '#web/features/dashboards/components/segment-dashboard.tsx';

// `/defense-dashboard` ("Defense and Government"): defense and government organizations, once
// approved (the shell checks).
export function Component() {
  return <SegmentDashboard copy={dashboardsCopy.defense} />;
}
